"""Kaggle's download of leaf-classification: nested zips of CSVs and of the leaf images.

``leaf-classification.zip`` holds ``train.csv.zip`` (``train.csv``: ``id,species``,
``margin1``–``margin64``, ``shape1``–``shape64``, ``texture1``–``texture64``), ``test.csv.zip``
(``test.csv``, without ``species``), ``sample_submission.csv.zip`` (``id`` and the 99 species,
the submission columns of the competition's config) and ``images.zip`` (``images/<id>.jpg``,
one grayscale JPEG per train and test leaf, of varying size). Ids are the numbers 1 to N in a
random assignment. The synthetic descriptors are centred on a vector per species, so the content
predicts the species; the images are noise of random size, so file sizes do not.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from pytest_mlebench.definition import load_competition

COMPETITION = "leaf-classification"
SPECIES = load_competition(
    Path(__file__).resolve().parents[3] / "competitions" / COMPETITION, leaderboard=False
).submission.target_columns
DESCRIPTORS = [f"{kind}{i}" for kind in ("margin", "shape", "texture") for i in range(1, 65)]
LEAVES_PER_SPECIES = 3
TEST_ROWS = 20


def _zip_of(name: str, content: bytes | str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr(name, content)
    return buffer.getvalue()


def _jpeg(rng: np.random.Generator) -> bytes:
    size = (int(rng.integers(6, 14)), int(rng.integers(6, 14)))
    pixels = rng.integers(0, 256, size=size, dtype=np.uint8)
    buffer = io.BytesIO()
    Image.fromarray(pixels, mode="L").save(buffer, format="JPEG")
    return buffer.getvalue()


def _descriptors(rng: np.random.Generator, centres: np.ndarray, kinds: np.ndarray) -> pd.DataFrame:
    values = centres[kinds] + rng.normal(0, 0.002, size=(len(kinds), len(DESCRIPTORS)))
    return pd.DataFrame(np.round(np.abs(values), 6), columns=DESCRIPTORS)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    centres = rng.uniform(0, 0.05, size=(len(SPECIES), len(DESCRIPTORS)))
    kinds = np.repeat(np.arange(len(SPECIES)), LEAVES_PER_SPECIES)
    test_kinds = rng.integers(0, len(SPECIES), size=TEST_ROWS)
    ids = rng.permutation(np.arange(1, len(kinds) + TEST_ROWS + 1))
    train = _descriptors(rng, centres, kinds)
    train.insert(0, "species", [SPECIES[k] for k in kinds])
    train.insert(0, "id", ids[: len(kinds)])
    train = train.sort_values("id")  # Kaggle's train.csv is in id order
    test = _descriptors(rng, centres, test_kinds)
    test.insert(0, "id", np.sort(ids[len(kinds) :]))
    sample = pd.DataFrame({"id": test["id"], **{name: 1 / len(SPECIES) for name in SPECIES}})
    images = io.BytesIO()
    with zipfile.ZipFile(images, "w") as bundle:
        for leaf in sorted(ids):
            bundle.writestr(f"images/{leaf}.jpg", _jpeg(rng))
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("train.csv.zip", _zip_of("train.csv", train.to_csv(index=False)))
        bundle.writestr("test.csv.zip", _zip_of("test.csv", test.to_csv(index=False)))
        bundle.writestr(
            "sample_submission.csv.zip",
            _zip_of("sample_submission.csv", sample.to_csv(index=False)),
        )
        bundle.writestr("images.zip", images.getvalue())


def public_train_labels(public: Path) -> pd.DataFrame:
    train = pd.read_csv(public / "train.csv", usecols=["id", "species"])
    labels = pd.DataFrame({"id": train["id"]})
    for name in SPECIES:
        labels[name] = (train["species"] == name).astype(int)
    return labels


def _images(public: Path, part: str) -> dict[str, Path]:
    ids = pd.read_csv(public / f"{part}.csv", usecols=["id"])["id"].astype(str)
    return {leaf: public / "images" / f"{leaf}.jpg" for leaf in ids}


def train_files(public: Path) -> dict[str, Path]:
    return _images(public, "train")


def test_files(public: Path) -> dict[str, Path]:
    return _images(public, "test")
