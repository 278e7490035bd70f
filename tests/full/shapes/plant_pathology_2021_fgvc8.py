"""Kaggle's download of plant-pathology-2021-fgvc8: CSVs and JPEG folders in one zip.

``plant-pathology-2021-fgvc8.zip`` holds ``train.csv`` (``image,labels``: the file name, with
``.jpg``, and space-separated labels), ``sample_submission.csv`` (``image,labels``),
``train_images/<image>`` and ``test_images/<image>`` (Kaggle's three test photos). Names are 16
random hex digits plus ``.jpg``; there is no ``test.csv``. A synthetic photo's colour follows its
first label, under noise that dominates the encoded size, so the pixels predict the labels and the
file size does not; rows are sorted by label, so a prepare that kept the raw order would leak.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, random_hex, tinted_noise

COMPETITION = "plant-pathology-2021-fgvc8"
EMPTY_CELL_IS_TEXT = True
LABELS = ("healthy", "scab", "frog_eye_leaf_spot", "rust", "complex", "powdery_mildew")
TRAIN_ROWS = 150
TEST_ROWS = 3


def _photo(rng: np.random.Generator, first: int) -> bytes:
    tint = (first * 30, 200 - first * 30, 60)
    size = (int(rng.integers(10, 18)), int(rng.integers(10, 18)))
    return encoded(tinted_noise(rng, *size, tint), "JPEG")


def _labels(rng: np.random.Generator) -> list[int]:
    if rng.random() < 0.3:
        return [0]
    return sorted(
        int(k) for k in rng.choice(range(1, 6), size=int(rng.integers(1, 3)), replace=False)
    )


def make_download(folder: Path, rng: np.random.Generator) -> None:
    labels = sorted((_labels(rng) for _ in range(TRAIN_ROWS)), key=lambda row: row[0])
    names = [f"{random_hex(rng, 16)}.jpg" for _ in range(TRAIN_ROWS + TEST_ROWS)]
    train = pd.DataFrame(
        {
            "image": names[:TRAIN_ROWS],
            "labels": [" ".join(LABELS[k] for k in row) for row in labels],
        }
    )
    sample = pd.DataFrame({"image": names[TRAIN_ROWS:], "labels": "healthy"})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for name, row in zip(names[:TRAIN_ROWS], labels, strict=True):
            bundle.writestr(f"train_images/{name}", _photo(rng, row[0]))
        for name in names[TRAIN_ROWS:]:
            bundle.writestr(f"test_images/{name}", _photo(rng, 0))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", dtype=str, keep_default_na=False)


def _photos(public: Path, part: str) -> dict[str, Path]:
    return {path.name: path for path in (public / part).glob("*.jpg")}


def train_files(public: Path) -> dict[str, Path]:
    return _photos(public, "train_images")


def test_files(public: Path) -> dict[str, Path]:
    return _photos(public, "test_images")
