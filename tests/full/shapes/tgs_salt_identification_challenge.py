"""Kaggle's download of tgs-salt-identification-challenge: masks as PNGs and as column-major RLE.

``tgs-salt-identification-challenge.zip`` holds ``competition_data.zip`` (a folder
``competition_data/`` with ``train.csv`` — ``id,rle_mask``, 10-hex-digit ids, an empty cell for
an image without salt — ``train/images/<id>.png``, ``train/masks/<id>.png``, ``test/images/`` with
Kaggle's unlabelled images), ``depths.csv`` (``id,z`` for train and test images), and the
top-level ``train.csv`` and ``sample_submission.csv``. Kaggle's duplicate ``train.zip``,
``test.zip`` and ``flamingo.zip`` are left out (MLE-bench reads only ``competition_data``). Images
are 101 x 101 grayscale PNGs, brighter where the salt is; a third of the images have none, and a
salt body is a block reaching the bottom of the image, as salt domes do.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from pytest_mlebench.graders.rle import encode
from tests.lite.synthetic_images import encoded, random_hex, zip_bytes

COMPETITION = "tgs-salt-identification-challenge"
EMPTY_CELL_IS_TEXT = True  # an empty mask is a valid prediction of no salt
IMAGES = 32
SIDE = 101


def _mask(rng: np.random.Generator) -> np.ndarray:
    mask = np.zeros((SIDE, SIDE), dtype=bool)
    if rng.random() < 0.35:
        return mask
    top, left = rng.integers(10, 90), rng.integers(0, 60)
    mask[top:, left : left + rng.integers(20, 41)] = True
    return mask


def _png(pixels: np.ndarray) -> bytes:
    return encoded(pixels.astype(np.uint8), "PNG")


def make_download(folder: Path, rng: np.random.Generator) -> None:
    ids = [random_hex(rng, 10) for _ in range(IMAGES)]
    kaggle_test = [random_hex(rng, 10) for _ in range(3)]
    masks = [_mask(rng) for _ in ids]
    train = pd.DataFrame({"id": ids, "rle_mask": [encode(mask, "column") for mask in masks]})
    members = {"competition_data/train.csv": train.to_csv(index=False).encode()}
    for name, mask in zip(ids, masks, strict=True):
        image = rng.integers(0, 8, size=(SIDE, SIDE)) + 100 * mask
        members[f"competition_data/train/images/{name}.png"] = _png(image)
        members[f"competition_data/train/masks/{name}.png"] = _png(mask * 255)
    for name in kaggle_test:
        members[f"competition_data/test/images/{name}.png"] = _png(rng.integers(0, 8, (SIDE, SIDE)))
    depths = pd.DataFrame({"id": ids + kaggle_test, "z": rng.integers(50, 960, IMAGES + 3)})
    sample = pd.DataFrame({"id": kaggle_test, "rle_mask": "1 1"})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("competition_data.zip", zip_bytes(members))
        bundle.writestr("depths.csv", depths.to_csv(index=False))
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", dtype=str, keep_default_na=False)


def train_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "train" / "images").iterdir()}


def test_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "test" / "images").iterdir()}
