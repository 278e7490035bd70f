"""Kaggle's download of herbarium-2022-fgvc9: two metadata files and the image folders.

``herbarium-2022-fgvc9.zip`` holds ``train_metadata.json`` (``annotations``, ``categories``,
``genera``, ``distances``, ``images``, ``institutions``, ``licenses``; ``image_id`` such as
``15504__037``), ``train_images/{c // 100:03d}/{c % 100:02d}/<image_id>.jpg``,
``test_metadata.json`` (a list of image records), ``test_images/...`` and
``sample_submission.csv`` (``Id,Predicted``); see :mod:`tests.full.herbarium_files`. Every
category has at least four specimens, as in Kaggle's data.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from tests.full import herbarium_files

COMPETITION = "herbarium-2022-fgvc9"
LAYOUT = herbarium_files.Layout(
    train_json="train_metadata.json",
    test_json="test_metadata.json",
    train_images="train_images/",
    test_images="test_images/",
    image_key="image_id",
    extra_tables=("genera", "distances", "institutions"),
    note_field="institution_id",
    edition=2022,
    smallest=4,
)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    herbarium_files.make_download(folder / f"{COMPETITION}.zip", rng, LAYOUT)


def public_train_labels(public: Path) -> pd.DataFrame:
    return herbarium_files.train_labels(public, LAYOUT)


def train_files(public: Path) -> dict[str, Path]:
    return herbarium_files.image_files(public, LAYOUT, "train")


def test_files(public: Path) -> dict[str, Path]:
    return herbarium_files.image_files(public, LAYOUT, "test")
