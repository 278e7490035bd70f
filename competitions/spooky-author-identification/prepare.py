"""Prepare ``spooky-author-identification`` from Kaggle's files.

Kaggle's test set has no public labels, so the labelled ``train.csv`` is split again: 10 % of its
rows become the test set, drawn with scikit-learn's ``train_test_split`` at ``random_state=0``,
the split MLE-bench uses, so scores here compare with published MLE-bench results. Kaggle's ids
are random strings, so they stay. The sample submission carries Kaggle's constant probabilities
(each author's share of the training sentences).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_prepared

AUTHORS = ("EAP", "HPL", "MWS")
SAMPLE_PROBABILITIES = {
    "EAP": 0.403493538995863,
    "HPL": 0.287808366106543,
    "MWS": 0.308698094897594,
}
TEST_FRACTION = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv`` into train and test; write the answers one-hot."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype={"id": str, "text": str, "author": str})
    require(
        list(source.columns) == ["id", "text", "author"],
        f"unexpected columns {list(source.columns)}",
    )
    unknown = set(source["author"]) - set(AUTHORS)
    require(not unknown, f"unknown authors {sorted(unknown)} in train.csv")
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    answers = pd.DataFrame({"id": test["id"]})
    for author in AUTHORS:
        answers[author] = (test["author"] == author).astype("int64")
    sample = pd.DataFrame({"id": test["id"], **SAMPLE_PROBABILITIES})
    write_prepared(
        public,
        private,
        train=train.reset_index(drop=True),
        test=test.drop(columns=["author"]).reset_index(drop=True),
        answers=answers.reset_index(drop=True),
        sample=sample.reset_index(drop=True),
    )
