"""Kaggle's download of dogs-vs-cats-redux-kernels-edition: two zips of JPEGs and a CSV.

``dogs-vs-cats-redux-kernels-edition.zip`` holds ``train.zip`` (``train/cat.<n>.jpg`` and
``train/dog.<n>.jpg``, numbered from 0 per animal: the label is in the name), ``test.zip``
(``test/<n>.jpg``, numbered from 1) and ``sample_submission.csv`` (``id,label``, 0.5). The
synthetic 8 x 8 photographs are noise tinted by the animal, so the label follows from the pixels
as well as from the raw name; the prepare must hide the latter for the test set.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_images import encoded, tinted_noise, zip_bytes

COMPETITION = "dogs-vs-cats-redux-kernels-edition"
PER_ANIMAL = 50
TEST_IMAGES = 10
SIDE = 8
TINTS = {"cat": (80, 0, 40), "dog": (0, 80, 40)}


def _image(rng: np.random.Generator, animal: str) -> bytes:
    return encoded(tinted_noise(rng, SIDE, SIDE, TINTS[animal]), "JPEG")


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train = {
        f"train/{animal}.{n}.jpg": _image(rng, animal)
        for animal in ("cat", "dog")
        for n in range(PER_ANIMAL)
    }
    test = {
        f"test/{n}.jpg": _image(rng, str(rng.choice(["cat", "dog"])))
        for n in range(1, TEST_IMAGES + 1)
    }
    sample = pd.DataFrame({"id": range(1, TEST_IMAGES + 1), "label": 0.5})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.zip", zip_bytes(train))
        bundle.writestr("test.zip", zip_bytes(test))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    names = sorted(path.stem for path in (public / "train").glob("*.jpg"))
    return pd.DataFrame({"id": names, "label": [int(n.startswith("dog.")) for n in names]})


def train_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "train").glob("*.jpg")}


def test_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "test").glob("*.jpg")}
