"""Kaggle's download of tensorflow2-question-answering: JSON lines and a CSV in one zip.

``tensorflow2-question-answering.zip`` holds ``simplified-nq-train.jsonl`` (one example per line:
``example_id`` an integer, often negative; ``question_text``; ``document_text`` as space-separated
tokens with HTML markup; ``long_answer_candidates``; ``annotations`` with one annotation of
``long_answer``, ``short_answers``, ``yes_no_answer``; ``document_url``),
``simplified-nq-test.jsonl`` (the four unlabelled keys) and ``sample_submission.csv``
(``example_id,PredictionString``, ``<id>_long`` / ``<id>_short``). There are just over 1,000
training lines, so prepare's split runs over two blocks; about a third of the questions have no
answer, some have two short spans or YES/NO. The question names the word where the answer
starts, so the text predicts it.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from tests.lite.harness import PreparedLite

COMPETITION = "tensorflow2-question-answering"
EMPTY_CELL_IS_TEXT = True
EXAMPLES = 1005
KAGGLE_TEST = 3
WORDS = ("river", "king", "city", "war", "song", "film", "team", "law", "star", "bridge")


def _example(rng: np.random.Generator, example_id: int) -> dict[str, Any]:
    tokens = ["<P>", *map(str, rng.choice(WORDS, size=20)), "</P>", "<P>"]
    tokens += [*map(str, rng.choice(WORDS, size=20)), "</P>"]
    candidates = [
        {"start_token": 0, "top_level": True, "end_token": 22},
        {"start_token": 22, "top_level": True, "end_token": 44},
    ]
    kind = rng.choice(["none", "span", "two", "yes"], p=[0.35, 0.35, 0.15, 0.15])
    start = int(rng.integers(1, 15))
    long = candidates[0] if kind != "none" else {"start_token": -1, "end_token": -1}
    shorts = []
    if kind in ("span", "two"):
        shorts.append({"start_token": start, "end_token": start + 2})
    if kind == "two":
        shorts.append({"start_token": start + 3, "end_token": start + 4})
    annotation = {
        "yes_no_answer": "YES" if kind == "yes" else "NONE",
        "long_answer": {**long, "candidate_index": 0 if kind != "none" else -1},
        "short_answers": shorts,
        "annotation_id": int(rng.integers(10**17, 10**18)),
    }
    return {
        "document_text": " ".join(tokens),
        "long_answer_candidates": candidates,
        "question_text": f"where is the {tokens[start]} {kind}",
        "annotations": [annotation],
        "document_url": f"https://en.wikipedia.org//w/index.php?title=Page_{example_id}",
        "example_id": example_id,
    }


def make_download(folder: Path, rng: np.random.Generator) -> None:
    ids = rng.choice(
        np.arange(-(10**18), 10**18, 10**12), size=EXAMPLES + KAGGLE_TEST, replace=False
    )
    train = [_example(rng, int(i)) for i in ids[:EXAMPLES]]
    test = [_example(rng, int(i)) for i in ids[EXAMPLES:]]
    keys = ("example_id", "question_text", "document_text", "long_answer_candidates")
    slots = [f"{i}_{part}" for i in ids[EXAMPLES:] for part in ("long", "short")]
    sample = pd.DataFrame({"example_id": slots, "PredictionString": ""})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("simplified-nq-train.jsonl", "".join(json.dumps(e) + "\n" for e in train))
        bundle.writestr(
            "simplified-nq-test.jsonl",
            "".join(json.dumps({k: e[k] for k in keys}) + "\n" for e in test),
        )
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def _slots(record: dict[str, Any]) -> list[tuple[str, str]]:
    annotation = record["annotations"][0]
    long = annotation["long_answer"]
    shorts = [f"{s['start_token']}:{s['end_token']}" for s in annotation["short_answers"]]
    if annotation["yes_no_answer"] != "NONE":
        shorts.append(annotation["yes_no_answer"])
    long_answer = f"{long['start_token']}:{long['end_token']}" if long["start_token"] >= 0 else ""
    example = record["example_id"]
    return [(f"{example}_long", long_answer), (f"{example}_short", shorts[0] if shorts else "")]


def public_train_labels(public: Path) -> pd.DataFrame:
    lines = (public / "simplified-nq-train.jsonl").read_text("utf-8").splitlines()
    rows = [slot for line in lines for slot in _slots(json.loads(line))]
    return pd.DataFrame(rows, columns=["example_id", "PredictionString"])


def perfect_submission(prepared: PreparedLite) -> pd.DataFrame:
    """The first acceptable answer of every slot."""
    answers = prepared.read_answers()
    first = answers["PredictionString"].str.split().str[0].fillna("")
    return answers.assign(PredictionString=first)
