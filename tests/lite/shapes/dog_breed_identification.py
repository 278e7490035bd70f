"""Kaggle's download of dog-breed-identification: two CSVs and two folders of JPEGs.

``dog-breed-identification.zip`` holds ``labels.csv`` (``id,breed``; ids are 32 hex digits),
``sample_submission.csv`` (``id`` and the 120 breed columns in alphabetical order, 1/120
everywhere), ``train/<id>.jpg`` and ``test/<id>.jpg`` (folders in the archive). The synthetic
8 x 8 photographs show four of the breeds, each a tint of the same noise; ``labels.csv`` is
grouped by breed, so a prepare that keeps the raw order would leak it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from tests.lite.synthetic_images import encoded, random_hex, tinted_noise

COMPETITION = "dog-breed-identification"
CONFIG = Path(__file__).resolve().parents[3] / "competitions" / COMPETITION / "config.yaml"
TINTS = {
    "beagle": (90, 0, 0),
    "pug": (0, 90, 0),
    "samoyed": (0, 0, 90),
    "whippet": (90, 90, 0),
}
PER_BREED = 30
TEST_IMAGES = 10
SIDE = 8


def breed_columns() -> list[str]:
    """The 120 breeds, alphabetical as in Kaggle's sample submission."""
    return list(yaml.safe_load(CONFIG.read_text("utf-8"))["submission"]["columns"])


def _image(rng: np.random.Generator, breed: str) -> bytes:
    return encoded(tinted_noise(rng, SIDE, SIDE, TINTS[breed]), "JPEG")


def make_download(folder: Path, rng: np.random.Generator) -> None:
    breeds = [breed for breed in TINTS for _ in range(PER_BREED)]
    ids = [random_hex(rng, 32) for _ in range(len(breeds) + TEST_IMAGES)]
    labels = pd.DataFrame({"id": ids[: len(breeds)], "breed": breeds})
    sample = pd.DataFrame({"id": ids[len(breeds) :]})
    columns = breed_columns()
    sample = pd.concat([sample, pd.DataFrame(1 / len(columns), sample.index, columns)], axis=1)
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("labels.csv", labels.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for image_id, breed in zip(labels["id"], breeds, strict=True):
            bundle.writestr(f"train/{image_id}.jpg", _image(rng, breed))
        for image_id in sample["id"]:
            bundle.writestr(f"test/{image_id}.jpg", _image(rng, str(rng.choice(list(TINTS)))))


def public_train_labels(public: Path) -> pd.DataFrame:
    labels = pd.read_csv(public / "labels.csv", dtype=str)
    onehot = pd.get_dummies(
        pd.Categorical(labels["breed"], categories=breed_columns()), dtype="int64"
    )
    return pd.concat([labels[["id"]], onehot], axis=1)


def train_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "train").glob("*.jpg")}


def test_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "test").glob("*.jpg")}
