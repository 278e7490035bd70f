"""Prepare ``aerial-cactus-identification`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train.csv`` (17,500 images) is split
again: 19 % of its rows (close to Kaggle's own 4,000 test images against 17,500 train images)
become the test set, drawn with scikit-learn's ``train_test_split`` at ``random_state=0``, the
split MLE-bench uses, so scores here compare with published MLE-bench results. Kaggle's image
names are content hashes that say nothing about the label, so they stay. Every image is placed
into ``public/train/`` or ``public/test/`` (a hard link where the file system allows, else a
copy), one file at a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, check_disjoint_ids, raw_file, require, write_csv
from pytest_mlebench.placing import place_file

COLUMNS = ["id", "has_cactus"]
TEST_FRACTION = 0.19
SEED = 0
SAMPLE_SCORE = 0.5


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv`` and its images into train and test."""
    source = _read_labels(raw / "train.csv")
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    check_disjoint_ids(train["id"], test["id"])
    _place_images(raw / "train", public / "train", train["id"])
    _place_images(raw / "train", public / "test", test["id"])
    answers = test.reset_index(drop=True)
    sample = answers.assign(has_cactus=SAMPLE_SCORE)
    check_answers(answers[["id"]], answers, sample, "id")
    write_csv(train.reset_index(drop=True), public / "train.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _read_labels(path: Path) -> pd.DataFrame:
    raw_file(path)
    labels = pd.read_csv(path, dtype={"id": str})
    require(list(labels.columns) == COLUMNS, f"{path.name} has columns {list(labels.columns)}")
    require(bool(labels["has_cactus"].isin([0, 1]).all()), f"{path.name}: has_cactus is not 0/1")
    return labels


def _place_images(source: Path, target: Path, names: Iterable[str]) -> None:
    for name in names:
        place_file(source / name, target / name)
