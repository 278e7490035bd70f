"""Kaggle's download of whale-categorization-playground: two CSVs and two folders of JPEGs.

``whale-categorization-playground.zip`` holds ``train.csv`` (``Image,Id``: 8-hex-digit ``.jpg``
names, ids ``w_`` and 7 hex digits, or ``new_whale``), ``train/<Image>``, ``test/<Image>``
(Kaggle's own unlabelled photos) and ``sample_submission.csv`` (``Image,Id``, five guesses). As
on Kaggle, most whales have one photo, some several, and ``new_whale`` is the largest id (about
a tenth of the photos). The 4 x 4 JPEGs are noise tinted by whale, so the photos predict the
whale; names and sizes do not.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, random_hex, tinted_noise

COMPETITION = "whale-categorization-playground"
EMPTY_CELL_IS_TEXT = True  # an empty ranking is a valid prediction of nothing
WHALES = 60


def _photo(rng: np.random.Generator, whale: int) -> bytes:
    return encoded(tinted_noise(rng, 4, 4, (whale * 4, 240 - whale * 4, 60)), "JPEG")


def make_download(folder: Path, rng: np.random.Generator) -> None:
    whales = [f"w_{random_hex(rng, 7)}" for _ in range(WHALES)]
    counts = rng.choice([1, 1, 1, 2, 2, 3, 5], WHALES)
    labels = [w for w, n in zip(whales, counts, strict=True) for _ in range(int(n))]
    labels += ["new_whale"] * (len(labels) // 9)
    order = rng.permutation(len(labels))
    train = pd.DataFrame(
        {
            "Image": [f"{random_hex(rng, 8)}.jpg" for _ in labels],
            "Id": [labels[i] for i in order],
        }
    )
    tint = {whale: position for position, whale in enumerate(["new_whale", *whales])}
    kaggle_test = [f"{random_hex(rng, 8)}.jpg" for _ in range(3)]
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        for image, whale in zip(train["Image"], train["Id"], strict=True):
            bundle.writestr(f"train/{image}", _photo(rng, tint[whale]))
        for image in kaggle_test:
            bundle.writestr(f"test/{image}", _photo(rng, 0))
        guesses = "new_whale w_23a388d w_9b5109b w_9c506f6 w_0369a5c"
        sample = pd.DataFrame({"Image": kaggle_test, "Id": guesses})
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", dtype=str)


def train_files(public: Path) -> dict[str, Path]:
    return {path.name: path for path in (public / "train").iterdir()}


def test_files(public: Path) -> dict[str, Path]:
    return {path.name: path for path in (public / "test").iterdir()}
