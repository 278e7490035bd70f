"""Kaggle's download of herbarium-2020-fgvc7: two COCO-style metadata files and the images.

``herbarium-2020-fgvc7.zip`` holds ``nybg2020/train/metadata.json`` (``annotations``,
``categories``, ``images``, ``info``, ``licenses``, ``regions``; ``images[i]`` and
``annotations[i]`` describe the same specimen), ``nybg2020/train/images/{c // 100:03d}/
{c % 100:02d}/<id>.jpg``, ``nybg2020/test/metadata.json`` (``images``, ``info``, ``licenses``),
``nybg2020/test/images/...`` and ``sample_submission.csv`` (``Id,Predicted``). Categories have
one to nine specimens, so the original's small-category rules all apply. An image's tint follows
its category under noise that dominates the encoded size.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from tests.full import herbarium_files

COMPETITION = "herbarium-2020-fgvc7"
LAYOUT = herbarium_files.Layout(
    train_json="nybg2020/train/metadata.json",
    test_json="nybg2020/test/metadata.json",
    train_images="nybg2020/train/",
    test_images="nybg2020/test/",
    image_key="id",
    extra_tables=("regions",),
    note_field="region_id",
)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    herbarium_files.make_download(folder / f"{COMPETITION}.zip", rng, LAYOUT)


def public_train_labels(public: Path) -> pd.DataFrame:
    return herbarium_files.train_labels(public, LAYOUT)


def train_files(public: Path) -> dict[str, Path]:
    return herbarium_files.image_files(public, LAYOUT, "train")


def test_files(public: Path) -> dict[str, Path]:
    return herbarium_files.image_files(public, LAYOUT, "test")
