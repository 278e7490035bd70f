"""Prepare ``plant-pathology-2021-fgvc8`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train.csv`` (18,632 photographs of
apple leaves, each with its space-separated diseases or ``healthy``) is split again: 20 % of its
rows become the test set, drawn with scikit-learn's ``train_test_split`` at ``random_state=0``
over the file's rows in their order — the split MLE-bench uses, so the same leaves are held out
and scores compare with published MLE-bench results. Each photo is placed under
``train_images/`` or ``test_images/`` (hard links where possible). As on Kaggle there is no
``test.csv``: the sample submission lists the test images, each labelled ``healthy``, as the
original's.
"""

from __future__ import annotations

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

ID = "image"
TARGET = "labels"
SAMPLE_LABELS = "healthy"
TEST_FRACTION = 0.2
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv``; place each photo with its part; answers are the labels."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == [ID, TARGET], f"train.csv columns {list(source.columns)}")
    photos = raw_folder(raw / "train_images")
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    train, test = train.reset_index(drop=True), test.reset_index(drop=True)
    check_disjoint_ids(train[ID], test[ID])
    for part, rows in (("train_images", train), ("test_images", test)):
        for photo in rows[ID]:
            place_file(photos / photo, public / part / photo)
    sample = pd.DataFrame({ID: test[ID], TARGET: SAMPLE_LABELS})
    check_answers(test[[ID]], test, sample, ID)
    write_csv(train, public / "train.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(test, private / "answers.csv")
