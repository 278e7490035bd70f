"""Kaggle's download of learning-agency-lab-automated-essay-scoring-2: one zip of three CSVs.

``learning-agency-lab-automated-essay-scoring-2.zip`` holds ``train.csv``
(``essay_id,full_text,score``), ``test.csv`` (``essay_id,full_text``) and
``sample_submission.csv`` (``essay_id,score``). Ids are seven random hex digits; scores are whole
numbers 1 to 6; essays are multi-line text. A synthetic essay's length and vocabulary grow with
its score, so the text predicts the score; rows are grouped by score, so a prepare that kept the
raw order would leak it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import random_hex

COMPETITION = "learning-agency-lab-automated-essay-scoring-2"
SCORES = range(1, 7)
ESSAYS_PER_SCORE = 14
TEST_ROWS = 5
PLAIN = ("the", "car", "is", "good", "people", "think", "because", "school", "thing")
RICH = ("consequently", "nevertheless", "perspective", "substantial", "democratic", "evidence")


def _essay(rng: np.random.Generator, score: int) -> str:
    sentences = []
    for _ in range(score + 1):
        words = list(rng.choice(PLAIN, size=6)) + list(rng.choice(RICH, size=score - 1))
        sentences.append(" ".join(rng.permutation(words)).capitalize() + ".")
    return "\n\n".join(sentences)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    scores = [score for score in SCORES for _ in range(ESSAYS_PER_SCORE)]
    ids = [random_hex(rng, 7) for _ in range(len(scores) + TEST_ROWS)]
    train = pd.DataFrame(
        {"essay_id": ids[: len(scores)], "full_text": [_essay(rng, s) for s in scores]}
    )
    train["score"] = scores
    test = pd.DataFrame(
        {"essay_id": ids[len(scores) :], "full_text": [_essay(rng, 3) for _ in range(TEST_ROWS)]}
    )
    sample = pd.DataFrame({"essay_id": test["essay_id"], "score": 3})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", usecols=["essay_id", "score"], dtype=str)
