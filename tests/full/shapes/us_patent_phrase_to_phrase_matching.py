"""Kaggle's download of us-patent-phrase-to-phrase-matching: one zip of three CSVs.

``us-patent-phrase-to-phrase-matching.zip`` holds ``train.csv``
(``id,anchor,target,context,score``), ``test.csv`` (``id,anchor,target,context``) and
``sample_submission.csv`` (``id,score``). Ids are 16 random hex digits; ``context`` is a CPC class
such as ``A47``; ``score`` is one of 0, 0.25, 0.5, 0.75 and 1. The synthetic target phrase shares as
many words with its anchor as the score says (0 to 4 of 4), so the text predicts the score; rows are
grouped by score, so a prepare that kept the raw order would leak it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import random_hex

COMPETITION = "us-patent-phrase-to-phrase-matching"
SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
ROWS_PER_SCORE = 60
TEST_ROWS = 6
WORDS = ("gear", "valve", "sensor", "shaft", "coil", "lens", "pump", "blade", "seal", "motor")
CONTEXTS = ("A47", "B60", "F16", "H01", "G06")


def _pair(rng: np.random.Generator, score: float) -> tuple[str, str]:
    anchor = list(rng.choice(WORDS, size=4, replace=False))
    shared = round(score * 4)
    others = [w for w in WORDS if w not in anchor]
    target = anchor[:shared] + list(rng.choice(others, size=4 - shared, replace=False))
    return " ".join(anchor), " ".join(rng.permutation(target))


def _table(rng: np.random.Generator, scores: list[float]) -> pd.DataFrame:
    pairs = [_pair(rng, score) for score in scores]
    return pd.DataFrame(
        {
            "id": [random_hex(rng, 16) for _ in scores],
            "anchor": [anchor for anchor, _ in pairs],
            "target": [target for _, target in pairs],
            "context": rng.choice(CONTEXTS, size=len(scores)),
            "score": scores,
        }
    )


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train = _table(rng, [score for score in SCORES for _ in range(ROWS_PER_SCORE)])
    test = _table(rng, [0.5] * TEST_ROWS).drop(columns=["score"])
    sample = pd.DataFrame({"id": test["id"], "score": 0})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", usecols=["id", "score"], dtype={"id": str})
