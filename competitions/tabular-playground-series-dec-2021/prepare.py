"""Prepare ``tabular-playground-series-dec-2021`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train.csv`` (4,000,000 synthetic
rows) is split again: 10 % of its rows become the test set, drawn with scikit-learn's
``train_test_split`` at ``random_state=0``, the split MLE-bench uses, so scores here compare with
published MLE-bench results. Kaggle's ``Id`` values are row numbers of a generated data set whose
order carries no label, so they stay. The sample submission predicts cover type 2 everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_prepared

ID = "Id"
TARGET = "Cover_Type"
COVER_TYPES = range(1, 8)
SAMPLE_COVER_TYPE = 2
TEST_FRACTION = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv`` into train and test; the answers are ``Id,Cover_Type``."""
    source_path = raw / "train.csv"
    raw_file(source_path)
    source = pd.read_csv(source_path)
    columns = list(source.columns)
    require(
        columns[:1] == [ID] and columns[-1:] == [TARGET],
        f"train.csv should start with {ID!r} and end with {TARGET!r}; got {columns[:2]}…",
    )
    unknown = set(source[TARGET].unique()) - set(COVER_TYPES)
    require(not unknown, f"unknown cover types {sorted(unknown)} in train.csv")
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    write_prepared(
        public,
        private,
        train=train.reset_index(drop=True),
        test=test.drop(columns=[TARGET]).reset_index(drop=True),
        answers=test[[ID, TARGET]].reset_index(drop=True),
        sample=pd.DataFrame({ID: test[ID].to_numpy(), TARGET: SAMPLE_COVER_TYPE}),
        id_column=ID,
    )
