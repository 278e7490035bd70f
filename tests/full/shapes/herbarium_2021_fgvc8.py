"""Kaggle's download of herbarium-2021-fgvc8: two COCO-style metadata files and the images.

``herbarium-2021-fgvc8.zip`` holds ``train/metadata.json`` (``annotations``, ``categories``,
``images``, ``info``, ``licenses``, ``institutions``; ``images[i]`` and ``annotations[i]``
describe the same specimen), ``train/images/{c // 100:03d}/{c % 100:02d}/<id>.jpg``,
``test/metadata.json`` (``images``, ``info``, ``licenses``), ``test/images/...`` and
``sample_submission.csv`` (``Id,Predicted``); see :mod:`tests.full.herbarium_files`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from tests.full import herbarium_files

COMPETITION = "herbarium-2021-fgvc8"
LAYOUT = herbarium_files.Layout(
    train_json="train/metadata.json",
    test_json="test/metadata.json",
    train_images="train/",
    test_images="test/",
    image_key="id",
    extra_tables=("institutions",),
    note_field="institution_id",
    edition=2021,
)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    herbarium_files.make_download(folder / f"{COMPETITION}.zip", rng, LAYOUT)


def public_train_labels(public: Path) -> pd.DataFrame:
    return herbarium_files.train_labels(public, LAYOUT)


def train_files(public: Path) -> dict[str, Path]:
    return herbarium_files.image_files(public, LAYOUT, "train")


def test_files(public: Path) -> dict[str, Path]:
    return herbarium_files.image_files(public, LAYOUT, "test")
