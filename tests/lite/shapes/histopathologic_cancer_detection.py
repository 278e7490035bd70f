"""Kaggle's download of histopathologic-cancer-detection: a CSV and two folders of TIFFs.

``histopathologic-cancer-detection.zip`` holds ``train_labels.csv`` (``id,label``; ids are 40
hex digits), ``sample_submission.csv`` (``id,label``, 0 for every test id), ``train/<id>.tif``
and ``test/<id>.tif`` (folders in the archive, no nested zips). The synthetic 4 x 4 RGB TIFFs are
uncompressed, so every file has the same size; the label is a tint of the noise. The labels are
listed grouped by class, so a prepare that keeps the raw order would leak them.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, random_hex, tinted_noise

COMPETITION = "histopathologic-cancer-detection"
TRAIN_PER_CLASS = 40
TEST_IMAGES = 20
SIDE = 4
TINTS = {0: (0, 0, 90), 1: (90, 0, 90)}


def _image(rng: np.random.Generator, label: int) -> bytes:
    return encoded(tinted_noise(rng, SIDE, SIDE, TINTS[label]), "TIFF")


def make_download(folder: Path, rng: np.random.Generator) -> None:
    labels = [label for label in (0, 1) for _ in range(TRAIN_PER_CLASS)]
    ids = [random_hex(rng, 40) for _ in range(len(labels) + TEST_IMAGES)]
    train = pd.DataFrame({"id": ids[: len(labels)], "label": labels})
    test_ids = ids[len(labels) :]
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train_labels.csv", train.to_csv(index=False))
        bundle.writestr(
            "sample_submission.csv", pd.DataFrame({"id": test_ids, "label": 0}).to_csv(index=False)
        )
        for image_id, label in zip(train["id"], labels, strict=True):
            bundle.writestr(f"train/{image_id}.tif", _image(rng, label))
        for image_id in test_ids:
            bundle.writestr(f"test/{image_id}.tif", _image(rng, int(rng.integers(2))))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train_labels.csv", dtype={"id": str})


def train_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "train").iterdir()}


def test_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "test").iterdir()}
