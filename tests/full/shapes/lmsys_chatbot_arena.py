"""Kaggle's download of lmsys-chatbot-arena: one zip of three CSVs.

``lmsys-chatbot-arena.zip`` holds ``train.csv`` (``id,model_a,model_b,prompt,response_a,
response_b,winner_model_a,winner_model_b,winner_tie``), ``test.csv`` (``id,prompt,response_a,
response_b``: no model names) and ``sample_submission.csv`` (``id`` and the three outcome
columns). Ids are integers of up to ten digits; prompts and responses are JSON lists of strings,
one per turn, with ``null`` for a missing turn. In the synthetic conversations the judge prefers
the response that says ``thanks`` (a tie when both or neither do), so the text predicts the
outcome; rows are grouped by outcome, so a prepare that kept the raw order would leak it.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "lmsys-chatbot-arena"
OUTCOMES = ("winner_model_a", "winner_model_b", "winner_tie")
ROWS_PER_OUTCOME = 30
TEST_ROWS = 6
MODELS = ("gpt-4-0613", "claude-2.1", "llama-2-70b-chat", "vicuna-13b", "mixtral-8x7b-instruct")
WORDS = ("sure", "here", "is", "an", "answer", "about", "the", "question", "you", "asked")


def _turns(rng: np.random.Generator, polite: bool) -> str:
    words = list(rng.choice(WORDS, size=6)) + (["thanks"] if polite else [])
    turns: list[str | None] = [" ".join(rng.permutation(words))]
    if rng.random() < 0.2:
        turns.append(None)  # Kaggle's files hold null turns
    return json.dumps(turns)


def _conversations(rng: np.random.Generator, outcomes: list[int]) -> pd.DataFrame:
    rows = []
    for outcome in outcomes:
        both = bool(rng.random() < 0.5)
        polite_a = outcome == 0 or (outcome == 2 and both)
        polite_b = outcome == 1 or (outcome == 2 and both)
        rows.append(
            {
                "prompt": json.dumps([" ".join(rng.choice(WORDS, size=5))]),
                "response_a": _turns(rng, polite_a),
                "response_b": _turns(rng, polite_b),
            }
        )
    return pd.DataFrame(rows)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    outcomes = [k for k in range(len(OUTCOMES)) for _ in range(ROWS_PER_OUTCOME)]
    ids = rng.choice(4_294_967_295, size=len(outcomes) + TEST_ROWS, replace=False)
    train = _conversations(rng, outcomes)
    train.insert(0, "model_b", rng.choice(MODELS, size=len(train)))
    train.insert(0, "model_a", rng.choice(MODELS, size=len(train)))
    train.insert(0, "id", ids[: len(outcomes)])
    for k, name in enumerate(OUTCOMES):
        train[name] = [int(outcome == k) for outcome in outcomes]
    test = _conversations(rng, [2] * TEST_ROWS)
    test.insert(0, "id", ids[len(outcomes) :])
    sample = pd.DataFrame({"id": test["id"], **dict.fromkeys(OUTCOMES, 1 / 3)})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", usecols=["id", *OUTCOMES], dtype={"id": str})
