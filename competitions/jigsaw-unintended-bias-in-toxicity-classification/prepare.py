"""Prepare ``jigsaw-unintended-bias-in-toxicity-classification`` from Kaggle's files.

After the competition Kaggle released the labels of its private test set as
``test_private_expanded.csv`` (97,320 comments); that file is the test set here, as in the
original MLE-bench, and Kaggle's ``train.csv`` (1.8 million comments) is the training set,
copied unchanged. The agent sees ``id`` and ``comment_text`` of the test comments; the answers
keep what the metric reads: the toxicity share and the shares of the nine identities the
competition scores (an identity left blank — not annotated — is 0, so the comment is outside the
subgroup, as Kaggle's rule ``share >= 0.5`` treats it). The sample submission predicts 0 for
every comment, as the original's (every AUC 0.5, no medal). Kaggle's other files
(``all_data.csv`` and the annotation tables hold the test labels too) are not published.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd

from pytest_mlebench.embedded import (
    check_answers,
    check_disjoint_ids,
    raw_file,
    require,
    write_csv,
)

ID = "id"
TEXT = "comment_text"
TOXICITY = "toxicity"
IDENTITIES = [
    "male", "female", "homosexual_gay_or_lesbian", "christian", "jewish", "muslim", "black",
    "white", "psychiatric_or_mental_illness",
]  # fmt: skip
TARGET = "prediction"


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Kaggle's train as train; the released private test labels as the answers."""
    train_file = raw_file(raw / "train.csv")
    source = pd.read_csv(raw_file(raw / "test_private_expanded.csv"), dtype={ID: str})
    needed = [ID, TEXT, TOXICITY, *IDENTITIES]
    missing = [column for column in needed if column not in source.columns]
    require(not missing, f"test_private_expanded.csv lacks columns {missing}")
    scores = source[[TOXICITY, *IDENTITIES]].apply(pd.to_numeric, errors="coerce")
    require(bool(scores[TOXICITY].notna().all()), "a test toxicity share is missing")
    answers = pd.concat([source[[ID]], scores.fillna({name: 0.0 for name in IDENTITIES})], axis=1)
    test = source[[ID, TEXT]]
    sample = pd.DataFrame({ID: test[ID], TARGET: 0.0})
    train_ids = pd.read_csv(train_file, usecols=[ID], dtype={ID: str})[ID]
    check_disjoint_ids(train_ids, test[ID])
    check_answers(test, answers, sample, ID)
    shutil.copyfile(train_file, public / "train.csv")
    write_csv(test, public / "test.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
