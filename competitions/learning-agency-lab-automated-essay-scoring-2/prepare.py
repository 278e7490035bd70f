"""Prepare ``learning-agency-lab-automated-essay-scoring-2`` from Kaggle's files.

Kaggle's test scores were never published, so the labelled ``train.csv`` (17,307 essays) is split
again: 10 % of its rows become the test set, drawn with scikit-learn's ``train_test_split`` at
``random_state=0`` over the file's rows in their order — the split MLE-bench uses, so the same
essays are held out and scores compare with published MLE-bench results. Kaggle's ids are random
hex strings and stay. The sample submission is the original's: a whole score from 1 to 6 per
essay, drawn with NumPy's ``RandomState(42)``.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_prepared

ID = "essay_id"
TARGET = "score"
COLUMNS = [ID, "full_text", TARGET]
SCORES = range(1, 7)
TEST_FRACTION = 0.1
SEED = 0
SAMPLE_SEED = 42


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv`` into train and test; the answers are the test scores."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == COLUMNS, f"train.csv columns {list(source.columns)}")
    scores = pd.to_numeric(source[TARGET], errors="coerce")
    require(bool(scores.isin(SCORES).all()), "train.csv scores must be whole numbers 1 to 6")
    source[TARGET] = scores.astype("int64")
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    draws = np.random.RandomState(SAMPLE_SEED).randint(1, 7, size=len(test))
    sample = pd.DataFrame({ID: test[ID].to_numpy(), TARGET: draws})
    write_prepared(
        public,
        private,
        train=train.reset_index(drop=True),
        test=test.drop(columns=[TARGET]).reset_index(drop=True),
        answers=test[[ID, TARGET]].reset_index(drop=True),
        sample=sample,
        id_column=ID,
    )
