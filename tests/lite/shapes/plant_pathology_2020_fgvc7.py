"""Kaggle's download of plant-pathology-2020-fgvc7: one zip of CSVs and an ``images/`` folder.

``plant-pathology-2020-fgvc7.zip`` holds ``train.csv`` (``image_id,healthy,multiple_diseases,
rust,scab``, one 1 per row), ``test.csv`` (``image_id``), ``sample_submission.csv`` and
``images/`` with ``Train_<i>.jpg`` and ``Test_<i>.jpg``. Each synthetic leaf is a few pixels
whose colour is the class's, with noise; every JPEG has the same size, so only the pixels tell
the class.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_media import jpeg_bytes

COMPETITION = "plant-pathology-2020-fgvc7"
CLASSES = ("healthy", "multiple_diseases", "rust", "scab")
COLOURS = {
    "healthy": (40, 170, 60),
    "multiple_diseases": (120, 90, 40),
    "rust": (200, 110, 30),
    "scab": (90, 90, 90),
}
TRAIN_ROWS = 160
TEST_ROWS = 10
JPEG_SIZE = 1_400


def _leaf(rng: np.random.Generator, label: str) -> bytes:
    noise = rng.normal(0.0, 12.0, size=(8, 8, 3))
    pixels = np.clip(np.asarray(COLOURS[label]) + noise, 0, 255).astype(np.uint8)
    return jpeg_bytes(pixels, JPEG_SIZE)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    labels = rng.permutation([CLASSES[i % len(CLASSES)] for i in range(TRAIN_ROWS)])
    train = pd.DataFrame({"image_id": [f"Train_{i}" for i in range(TRAIN_ROWS)]})
    for name in CLASSES:
        train[name] = (labels == name).astype(int)
    test = pd.DataFrame({"image_id": [f"Test_{i}" for i in range(TEST_ROWS)]})
    sample = test.assign(**dict.fromkeys(CLASSES, 0.25))
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for image_id, label in zip(train["image_id"], labels, strict=True):
            bundle.writestr(f"images/{image_id}.jpg", _leaf(rng, label))
        for image_id in test["image_id"]:
            bundle.writestr(f"images/{image_id}.jpg", _leaf(rng, str(rng.choice(CLASSES))))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", dtype={"image_id": str})


def _images(public: Path, table: str) -> dict[str, Path]:
    ids = pd.read_csv(public / table, dtype={"image_id": str})["image_id"]
    return {image_id: public / "images" / f"{image_id}.jpg" for image_id in ids}


def train_files(public: Path) -> dict[str, Path]:
    return _images(public, "train.csv")


def test_files(public: Path) -> dict[str, Path]:
    return _images(public, "test.csv")
