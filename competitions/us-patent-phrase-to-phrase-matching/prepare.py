"""Prepare ``us-patent-phrase-to-phrase-matching`` from Kaggle's files.

Kaggle's test scores were never published, so the labelled ``train.csv`` (36,473 phrase pairs) is
split again: 10 % of its rows become the test set, drawn with scikit-learn's ``train_test_split``
at ``random_state=0`` over the file's rows in their order — the split MLE-bench uses, so the same
pairs are held out and scores compare with published MLE-bench results. Kaggle's ids are random
hex strings and stay. The original's sample submission predicts 0 everywhere, which has no
Pearson correlation (NaN); here it predicts a seeded random choice of the five score values, a
valid submission that correlates with nothing.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_prepared

ID = "id"
TARGET = "score"
COLUMNS = [ID, "anchor", "target", "context", TARGET]
SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
TEST_FRACTION = 0.1
SEED = 0
SAMPLE_SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv`` into train and test; the answers are the test scores."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == COLUMNS, f"train.csv columns {list(source.columns)}")
    scores = pd.to_numeric(source[TARGET], errors="coerce")
    require(
        bool(scores.isin(SCORES).all()),
        f"train.csv scores must be one of {', '.join(map(str, SCORES))}",
    )
    source[TARGET] = scores
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    rng = np.random.default_rng(SAMPLE_SEED)
    sample = pd.DataFrame({ID: test[ID], TARGET: rng.choice(SCORES, size=len(test))})
    write_prepared(
        public,
        private,
        train=train.reset_index(drop=True),
        test=test.drop(columns=[TARGET]).reset_index(drop=True),
        answers=test[[ID, TARGET]].reset_index(drop=True),
        sample=sample.reset_index(drop=True),
        id_column=ID,
    )
