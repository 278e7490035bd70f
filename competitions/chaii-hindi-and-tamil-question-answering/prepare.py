"""Prepare ``chaii-hindi-and-tamil-question-answering`` from Kaggle's files.

Kaggle's test answers were never published, so the labelled ``train.csv`` (1,114 Hindi and Tamil
questions, each with a Wikipedia passage and the answer span found in it) is split again: 10 % of
its rows become the test set, drawn with scikit-learn's ``train_test_split`` at
``random_state=0`` over the file's rows in their order — the split MLE-bench uses, so the same
questions are held out and scores compare with published MLE-bench results. The test file loses
``answer_text`` and ``answer_start``; the answers are the spans, in the submission's column
``PredictionString``. The sample submission answers ``dummy text`` everywhere, as the original's.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_prepared

ID = "id"
COLUMNS = [ID, "context", "question", "answer_text", "answer_start", "language"]
HIDDEN = ["answer_text", "answer_start"]
TARGET = "PredictionString"
SAMPLE_TEXT = "dummy text"
TEST_FRACTION = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv``; the answers are the held-out answer spans."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == COLUMNS, f"train.csv columns {list(source.columns)}")
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    train, test = train.reset_index(drop=True), test.reset_index(drop=True)
    answers = pd.DataFrame({ID: test[ID], TARGET: test["answer_text"]})
    write_prepared(
        public,
        private,
        train=train,
        test=test.drop(columns=HIDDEN),
        answers=answers,
        sample=pd.DataFrame({ID: test[ID], TARGET: SAMPLE_TEXT}),
        id_column=ID,
    )
