"""Kaggle's download of imet-2020-fgvc7: CSVs and one PNG per artwork in one zip.

``imet-2020-fgvc7.zip`` holds ``train.csv`` (``id,attribute_ids``, space-separated integers),
``labels.csv`` (``attribute_id,attribute_name``), ``sample_submission.csv``
(``id,attribute_ids``), and ``train/<id>.png`` / ``test/<id>.png``. Ids are 16 random hex
digits; there is no ``test.csv``. A synthetic image's colour follows its first attribute, under
noise that dominates the encoded size, so the pixels predict the attributes and the file size
does not; rows are sorted by first attribute, so a prepare that kept the raw order would leak.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, random_hex, tinted_noise

COMPETITION = "imet-2020-fgvc7"
EMPTY_CELL_IS_TEXT = True
NAMES = (
    "culture::french", "culture::egyptian", "medium::oil", "medium::bronze", "tag::men",
    "tag::landscapes", "tag::flowers", "country::italy", "dimension::small", "tag::women",
)  # fmt: skip
TRAIN_ROWS = 150
TEST_ROWS = 4


def _image(rng: np.random.Generator, first: int) -> bytes:
    tint = (first * 25, 255 - first * 25, (first * 70) % 255)
    size = (int(rng.integers(10, 18)), int(rng.integers(10, 18)))
    return encoded(tinted_noise(rng, *size, tint), "PNG")


def _attributes(rng: np.random.Generator, rows: int) -> list[list[int]]:
    drawn = [
        sorted(rng.choice(len(NAMES), size=int(rng.integers(1, 4)), replace=False))
        for _ in range(rows)
    ]
    return sorted((list(map(int, row)) for row in drawn), key=lambda row: row[0])


def make_download(folder: Path, rng: np.random.Generator) -> None:
    attributes = _attributes(rng, TRAIN_ROWS)
    train = pd.DataFrame(
        {
            "id": [random_hex(rng, 16) for _ in range(TRAIN_ROWS)],
            "attribute_ids": [" ".join(map(str, row)) for row in attributes],
        }
    )
    labels = pd.DataFrame({"attribute_id": range(len(NAMES)), "attribute_name": NAMES})
    test_ids = [random_hex(rng, 16) for _ in range(TEST_ROWS)]
    sample = pd.DataFrame({"id": test_ids, "attribute_ids": "0 1 2"})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("labels.csv", labels.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for image, row in zip(train["id"], attributes, strict=True):
            bundle.writestr(f"train/{image}.png", _image(rng, row[0]))
        for image in test_ids:
            bundle.writestr(f"test/{image}.png", _image(rng, 0))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", dtype=str, keep_default_na=False)


def _images(public: Path, part: str) -> dict[str, Path]:
    return {path.stem: path for path in (public / part).glob("*.png")}


def train_files(public: Path) -> dict[str, Path]:
    return _images(public, "train")


def test_files(public: Path) -> dict[str, Path]:
    return _images(public, "test")
