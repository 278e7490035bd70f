"""Prepare ``hotel-id-2021-fgvc8`` from Kaggle's files.

Kaggle's test hotels were never published, so the labelled ``train.csv`` (97,554 photos of
7,770 hotels) is split again as MLE-bench does: first the rows of ``ce27d36c9147cc19.jpg`` are
dropped (that file name is listed twice, so it could land on both sides), then scikit-learn's
``train_test_split(test_size=0.1, random_state=0)`` over the remaining rows in file order, so
the same photos are held out and scores compare with published MLE-bench runs.

Photos are placed, never decoded: a train photo keeps Kaggle's ``train_images/<chain>/<image>``,
a test photo goes to ``test_images/<image>`` (its chain would hint at its hotel). The sample
submission lists MLE-bench's five hotel ids for every test photo.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
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
from pytest_mlebench.placing import place_files

ID, TARGET = "image", "hotel_id"
COLUMNS = [ID, "chain", TARGET, "timestamp"]
LISTED_TWICE = "ce27d36c9147cc19.jpg"
SAMPLE_HOTELS = "36363 53586 18807 64314 60181"
TEST_SIZE = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split ``train.csv`` 90/10 as MLE-bench; place each photo on its side."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == COLUMNS, f"train.csv columns are {list(source.columns)}")
    source = source[source[ID] != LISTED_TWICE]
    require(len(source) >= 10, f"train.csv has {len(source)} rows; expected 97,554")
    train_rows, test_rows = train_test_split(
        np.arange(len(source)), test_size=TEST_SIZE, random_state=SEED
    )
    train, test = source.iloc[train_rows], source.iloc[test_rows]
    answers = test[[ID, TARGET]]
    sample = answers.assign(**{TARGET: SAMPLE_HOTELS})
    check_disjoint_ids(train[ID], test[ID])
    check_answers(answers[[ID]], answers, sample, ID)
    write_csv(train, public / "train.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    images = raw_folder(raw / "train_images")
    place_files(
        (images / chain / image, public / "train_images" / chain / image)
        for image, chain in zip(train[ID], train["chain"], strict=True)
    )
    place_files(
        (images / chain / image, public / "test_images" / image)
        for image, chain in zip(test[ID], test["chain"], strict=True)
    )
