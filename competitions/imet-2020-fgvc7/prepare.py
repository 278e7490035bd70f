"""Prepare ``imet-2020-fgvc7`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train.csv`` (142,119 artworks of The
Met, each with its attribute ids) is split again: 15 % of its rows become the test set (Kaggle's
own test share), drawn with scikit-learn's ``train_test_split`` at ``random_state=0`` over the
file's rows in their order — the split MLE-bench uses, so the same artworks are held out and
scores compare with published MLE-bench results. Each image is placed under ``train/`` or
``test/`` (hard links where possible); ``labels.csv`` (attribute id → name) is published
unchanged. As on Kaggle, there is no ``test.csv``: the sample submission lists the test ids,
with the attributes ``0 1 2`` for every artwork, as the original's.
"""

from __future__ import annotations

import shutil
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

ID = "id"
TARGET = "attribute_ids"
SAMPLE_ATTRIBUTES = "0 1 2"
TEST_FRACTION = 0.15
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv``; place each image with its part; answers are the attributes."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == [ID, TARGET], f"train.csv columns {list(source.columns)}")
    images = raw_folder(raw / "train")
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    train, test = train.reset_index(drop=True), test.reset_index(drop=True)
    check_disjoint_ids(train[ID], test[ID])
    for part, rows in (("train", train), ("test", test)):
        for image in rows[ID]:
            place_file(images / f"{image}.png", public / part / f"{image}.png")
    sample = pd.DataFrame({ID: test[ID], TARGET: SAMPLE_ATTRIBUTES})
    check_answers(test[[ID]], test, sample, ID)
    write_csv(train, public / "train.csv")
    shutil.copyfile(raw_file(raw / "labels.csv"), public / "labels.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(test, private / "answers.csv")
