"""Kaggle's download of denoising-dirty-documents: four zips inside the competition's zip.

``denoising-dirty-documents.zip`` holds ``train.zip`` (``train/<n>.png``), ``train_cleaned.zip``
(``train_cleaned/<n>.png``, the same names), ``test.zip`` (``test/<n>.png``) and
``sampleSubmission.csv.zip`` (``sampleSubmission.csv``: ``id,value``, ids ``<n>_<row>_<col>``
from 1, value 1). Pages are numbered from 1 to 216 across train and test. The synthetic pages
are 6 x 4 grayscale PNGs: a clean page of white paper with random dark "ink" pixels, and its
noisy copy (ink faded, a stain and noise added), so the clean pixels follow from the noisy ones.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from tests.lite.synthetic_images import encoded, zip_bytes

COMPETITION = "denoising-dirty-documents"
TRAIN_PAGES = 20
TEST_PAGES = 5
HEIGHT, WIDTH = 6, 4
INK_SHARE = 0.25


def _pages(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    ink = rng.random((HEIGHT, WIDTH)) < INK_SHARE
    clean = np.where(ink, rng.integers(0, 40, size=ink.shape), 255).astype(np.uint8)
    stain = rng.integers(0, 60) * np.linspace(0.0, 1.0, WIDTH)[None, :]
    noisy = 0.6 * clean + 60 - stain + rng.normal(0.0, 8.0, size=ink.shape)
    return clean, np.clip(noisy, 0, 255).astype(np.uint8)


def _sample(test_pages: list[int]) -> pd.DataFrame:
    ids = [
        f"{page}_{row}_{col}"
        for page in test_pages
        for col in range(1, WIDTH + 1)
        for row in range(1, HEIGHT + 1)
    ]
    return pd.DataFrame({"id": ids, "value": 1})


def make_download(folder: Path, rng: np.random.Generator) -> None:
    numbers = [int(n) for n in rng.choice(np.arange(1, 217), TRAIN_PAGES + TEST_PAGES, False)]
    train, cleaned, test = {}, {}, {}
    for number in numbers[:TRAIN_PAGES]:
        clean, noisy = _pages(rng)
        train[f"train/{number}.png"] = encoded(noisy, "PNG")
        cleaned[f"train_cleaned/{number}.png"] = encoded(clean, "PNG")
    for number in numbers[TRAIN_PAGES:]:
        test[f"test/{number}.png"] = encoded(_pages(rng)[1], "PNG")
    sample = _sample(numbers[TRAIN_PAGES:]).to_csv(index=False).encode()
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.zip", zip_bytes(train))
        bundle.writestr("train_cleaned.zip", zip_bytes(cleaned))
        bundle.writestr("test.zip", zip_bytes(test))
        bundle.writestr("sampleSubmission.csv.zip", zip_bytes({"sampleSubmission.csv": sample}))


def _pixels(path: Path) -> pd.DataFrame:
    with Image.open(path) as image:
        values = np.asarray(image.convert("L"), dtype=float) / 255.0
    ids = [f"{path.stem}_{r + 1}_{c + 1}" for r in range(HEIGHT) for c in range(WIDTH)]
    return pd.DataFrame({"id": ids, "value": values.ravel()})


def public_train_labels(public: Path) -> pd.DataFrame:
    pages = sorted((public / "train_cleaned").glob("*.png"))
    return pd.concat([_pixels(path) for path in pages], ignore_index=True)


def _pixel_files(folder: Path) -> dict[str, Path]:
    return {
        f"{path.stem}_{r + 1}_{c + 1}": path
        for path in folder.glob("*.png")
        for r in range(HEIGHT)
        for c in range(WIDTH)
    }


def train_files(public: Path) -> dict[str, Path]:
    return _pixel_files(public / "train")


def test_files(public: Path) -> dict[str, Path]:
    return _pixel_files(public / "test")
