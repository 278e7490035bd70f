"""Prepare ``tweet-sentiment-extraction`` from Kaggle's files.

Kaggle's test spans were never published, so the labelled ``train.csv`` (27,481 tweets, each with
its sentiment and the words that carry it) is split again: 10 % of its rows become the test set,
drawn with scikit-learn's ``train_test_split`` at ``random_state=0`` over the file's rows in their
order — the split MLE-bench uses, so the same tweets are held out and scores compare with
published MLE-bench results. The test file loses ``selected_text``; the sample submission leaves
it empty for every tweet, as the original's (valid, scores 0). Kaggle's file has one tweet whose
text and span are both empty; it stays where the split puts it.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_prepared

ID = "textID"
TARGET = "selected_text"
COLUMNS = [ID, "text", TARGET, "sentiment"]
TEST_FRACTION = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv``; the answers are the held-out spans."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == COLUMNS, f"train.csv columns {list(source.columns)}")
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    train, test = train.reset_index(drop=True), test.reset_index(drop=True)
    write_prepared(
        public,
        private,
        train=train,
        test=test.drop(columns=[TARGET]),
        answers=test[[ID, TARGET]],
        sample=pd.DataFrame({ID: test[ID], TARGET: ""}),
        id_column=ID,
    )
