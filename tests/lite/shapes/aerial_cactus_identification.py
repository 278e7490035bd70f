"""Kaggle's download of aerial-cactus-identification: a CSV of labels and two zips of JPEGs.

``aerial-cactus-identification.zip`` holds ``train.csv`` (``id,has_cactus``; the id is the image's
file name, 32 hex digits and ``.jpg``), ``sample_submission.csv`` (``id,has_cactus``, 0.5 for
every test image), ``train.zip`` (``train/<id>``) and ``test.zip`` (``test/<id>``). The synthetic
8 x 8 images are noise with a green tint where a cactus is and a red one where none is; the
labels are listed grouped by class, so a prepare that keeps the raw order would leak them.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, random_hex, tinted_noise, zip_bytes

COMPETITION = "aerial-cactus-identification"
TRAIN_PER_CLASS = 50
TEST_IMAGES = 10
SIDE = 8
TINTS = {0: (90, 0, 0), 1: (0, 90, 0)}


def _image(rng: np.random.Generator, has_cactus: int) -> bytes:
    return encoded(tinted_noise(rng, SIDE, SIDE, TINTS[has_cactus]), "JPEG")


def make_download(folder: Path, rng: np.random.Generator) -> None:
    labels = [label for label in (1, 0) for _ in range(TRAIN_PER_CLASS)]
    names = [f"{random_hex(rng, 32)}.jpg" for _ in range(len(labels) + TEST_IMAGES)]
    train = pd.DataFrame({"id": names[: len(labels)], "has_cactus": labels})
    test_names = names[len(labels) :]
    sample = pd.DataFrame({"id": test_names, "has_cactus": 0.5})
    train_images = {f"train/{n}": _image(rng, y) for n, y in zip(train["id"], labels, strict=True)}
    test_images = {f"test/{n}": _image(rng, int(rng.integers(2))) for n in test_names}
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        bundle.writestr("train.zip", zip_bytes(train_images))
        bundle.writestr("test.zip", zip_bytes(test_images))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", dtype={"id": str})


def train_files(public: Path) -> dict[str, Path]:
    return {path.name: path for path in (public / "train").iterdir()}


def test_files(public: Path) -> dict[str, Path]:
    return {path.name: path for path in (public / "test").iterdir()}
