"""Kaggle's download of petfinder-pawpularity-score: CSVs and one JPEG per photo in one zip.

``petfinder-pawpularity-score.zip`` holds ``train.csv`` (``Id``, twelve 0/1 photo features from
``Subject Focus`` to ``Blur``, ``Pawpularity`` from 1 to 100), ``test.csv`` (``Id`` and the
features: a few placeholder rows), ``sample_submission.csv`` (``Id,Pawpularity``), and
``train/<Id>.jpg`` / ``test/<Id>.jpg``. Ids are 32 random hex digits. A synthetic photo's
brightness follows its score, under noise that dominates the encoded size, so the pixels predict
the score and the file size does not; rows are sorted by score, so a prepare that kept the raw
order would leak it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, random_hex, tinted_noise

COMPETITION = "petfinder-pawpularity-score"
FEATURES = (
    "Subject Focus", "Eyes", "Face", "Near", "Action", "Accessory",
    "Group", "Collage", "Human", "Occlusion", "Info", "Blur",
)  # fmt: skip
TRAIN_ROWS = 150
TEST_ROWS = 4


def _photo(rng: np.random.Generator, score: int) -> bytes:
    level = int(score * 1.5)
    size = (int(rng.integers(10, 18)), int(rng.integers(10, 18)))
    return encoded(tinted_noise(rng, *size, (level, level, level)), "JPEG")


def _table(rng: np.random.Generator, count: int) -> pd.DataFrame:
    table = pd.DataFrame({"Id": [random_hex(rng, 32) for _ in range(count)]})
    for name in FEATURES:
        table[name] = rng.integers(0, 2, size=count)
    return table


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train = _table(rng, TRAIN_ROWS)
    train["Pawpularity"] = np.sort(rng.integers(1, 101, size=TRAIN_ROWS))
    test = _table(rng, TEST_ROWS)
    sample = pd.DataFrame({"Id": test["Id"], "Pawpularity": 50.0})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for photo, score in zip(train["Id"], train["Pawpularity"], strict=True):
            bundle.writestr(f"train/{photo}.jpg", _photo(rng, int(score)))
        for photo in test["Id"]:
            bundle.writestr(f"test/{photo}.jpg", _photo(rng, 50))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", usecols=["Id", "Pawpularity"], dtype={"Id": str})


def _photos(public: Path, part: str) -> dict[str, Path]:
    ids = pd.read_csv(public / f"{part}.csv", usecols=["Id"], dtype=str)["Id"]
    return {photo: public / part / f"{photo}.jpg" for photo in ids}


def train_files(public: Path) -> dict[str, Path]:
    return _photos(public, "train")


def test_files(public: Path) -> dict[str, Path]:
    return _photos(public, "test")
