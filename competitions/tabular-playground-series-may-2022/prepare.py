"""Prepare ``tabular-playground-series-may-2022`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train.csv`` (900,000 simulated
rows) is split again: 100,000 rows become the test set, drawn with scikit-learn's
``train_test_split`` at ``random_state=0``, the split MLE-bench uses, so scores here compare with
published MLE-bench results. As there, the ids are renumbered in the split's (random) order:
train rows get ``0 … n_train - 1`` and test rows continue from ``n_train``. The sample
submission predicts 0.5 everywhere.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_prepared

ID = "id"
TARGET = "target"
TEST_ROWS = 100_000
SMALL_TEST_FRACTION = 0.1
"""Test share for a ``train.csv`` too small for 100,000 test rows (only synthetic fixtures)."""
SAMPLE_PROBABILITY = 0.5
SEED = 0


def test_size(rows: int) -> int | float:
    """Kaggle-sized data keeps MLE-bench's 100,000 test rows; a small file gets a tenth."""
    return TEST_ROWS if rows > 2 * TEST_ROWS else SMALL_TEST_FRACTION


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv``, renumber the ids, write ``id,target`` answers."""
    source_path = raw / "train.csv"
    raw_file(source_path)
    source = pd.read_csv(source_path)
    columns = list(source.columns)
    require(
        columns[:1] == [ID] and columns[-1:] == [TARGET],
        f"train.csv should start with {ID!r} and end with {TARGET!r}; got {columns[:2]}…",
    )
    require(set(source[TARGET].unique()) <= {0, 1}, "train.csv 'target' should hold only 0 and 1")
    train, test = train_test_split(source, test_size=test_size(len(source)), random_state=SEED)
    train = train.assign(**{ID: np.arange(len(train))}).reset_index(drop=True)
    test = test.assign(**{ID: np.arange(len(train), len(train) + len(test))})
    test = test.reset_index(drop=True)
    write_prepared(
        public,
        private,
        train=train,
        test=test.drop(columns=[TARGET]),
        answers=test[[ID, TARGET]],
        sample=pd.DataFrame({ID: test[ID], TARGET: SAMPLE_PROBABILITY}),
        id_column=ID,
    )
