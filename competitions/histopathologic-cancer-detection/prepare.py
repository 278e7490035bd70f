"""Prepare ``histopathologic-cancer-detection`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train_labels.csv`` (220,025 patches)
is split again. The test share is Kaggle's own: the number of raw test images over all images
(57,458 / 277,483, about 20.7 %), drawn with scikit-learn's ``train_test_split`` at
``random_state=0``, the split MLE-bench uses, so scores here compare with published MLE-bench
results. Kaggle's ids are content hashes that say nothing about the label, so they stay. The
220,025 TIFFs are placed one at a time into ``public/train/`` or ``public/test/`` (a hard link
where the file system allows, else a copy); the raw test folder is only counted.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import (
    check_answers,
    check_disjoint_ids,
    raw_file,
    raw_folder,
    require,
    write_csv,
)
from pytest_mlebench.placing import place_file

COLUMNS = ["id", "label"]
SEED = 0
SAMPLE_SCORE = 0
IMAGE_SUFFIX = ".tif"


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train_labels.csv`` and its patches into train and test."""
    source = _read_labels(raw / "train_labels.csv")
    train, test = train_test_split(
        source, test_size=kaggle_test_share(raw, len(source)), random_state=SEED
    )
    check_disjoint_ids(train["id"], test["id"])
    _place_images(raw / "train", public / "train", train["id"])
    _place_images(raw / "train", public / "test", test["id"])
    answers = test.reset_index(drop=True)
    sample = answers.assign(label=SAMPLE_SCORE)
    check_answers(answers[["id"]], answers, sample, "id")
    write_csv(train.reset_index(drop=True), public / "train_labels.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def kaggle_test_share(raw: Path, train_rows: int) -> float:
    """Kaggle's test images over all of Kaggle's images (counted, never read)."""
    folder = raw / "test"
    raw_folder(folder)
    with os.scandir(folder) as entries:
        test_images = sum(1 for entry in entries if entry.name.endswith(IMAGE_SUFFIX))
    require(test_images > 0, f"{folder} holds no {IMAGE_SUFFIX} images")
    return test_images / (train_rows + test_images)


def _read_labels(path: Path) -> pd.DataFrame:
    raw_file(path)
    labels = pd.read_csv(path, dtype={"id": str})
    require(list(labels.columns) == COLUMNS, f"{path.name} has columns {list(labels.columns)}")
    require(bool(labels["label"].isin([0, 1]).all()), f"{path.name}: label is not 0/1")
    return labels


def _place_images(source: Path, target: Path, ids: Iterable[str]) -> None:
    for image_id in ids:
        name = f"{image_id}{IMAGE_SUFFIX}"
        place_file(source / name, target / name)
