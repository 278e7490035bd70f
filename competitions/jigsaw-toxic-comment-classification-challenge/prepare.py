"""Prepare ``jigsaw-toxic-comment-classification-challenge`` from Kaggle's files.

Kaggle published the test labels after the competition (``test_labels.csv``), so no split is
drawn: as in MLE-bench, Kaggle's ``train.csv`` is the public train set and Kaggle's test set the
test set. Kaggle's test file also holds comments that were never scored (labelled ``-1`` in every
column, there to deter hand labelling); MLE-bench's grader skips them, and here they are left out
of the test set, so the same rows are scored. Kaggle's ids are random hex strings and stay. The
sample submission predicts 0.5 for every label.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv
from pytest_mlebench.placing import place_file

ID = "id"
LABELS = ("toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate")
UNSCORED = -1
SAMPLE_PROBABILITY = 0.5


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Keep Kaggle's train; make the test set from the scored rows of Kaggle's test set."""
    for name in ("train.csv", "test.csv", "test_labels.csv"):
        raw_file(raw / name)
    answers = _scored_labels(raw / "test_labels.csv")
    test = pd.read_csv(raw / "test.csv", dtype=str, keep_default_na=False)
    require(list(test.columns) == [ID, "comment_text"], f"test.csv columns {list(test.columns)}")
    test = test[test[ID].isin(set(answers[ID]))].reset_index(drop=True)
    answers = answers.set_index(ID).loc[test[ID]].reset_index()
    train_ids = pd.read_csv(raw / "train.csv", usecols=[ID], dtype=str)[ID]
    require(not set(train_ids) & set(test[ID]), "train.csv and test.csv share ids")
    sample = pd.DataFrame({ID: test[ID], **dict.fromkeys(LABELS, SAMPLE_PROBABILITY)})
    check_answers(test, answers, sample, ID)
    place_file(raw / "train.csv", public / "train.csv")
    write_csv(test, public / "test.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _scored_labels(path: Path) -> pd.DataFrame:
    """The rows of ``test_labels.csv`` that Kaggle scored (every label 0 or 1)."""
    labels = pd.read_csv(path, dtype={ID: str})
    require(
        list(labels.columns) == [ID, *LABELS], f"test_labels.csv columns {list(labels.columns)}"
    )
    values = labels[list(LABELS)]
    unscored = (values == UNSCORED).all(axis=1)
    scored = values.isin([0, 1]).all(axis=1)
    require(
        bool((unscored | scored).all()),
        "test_labels.csv rows must be all -1 (not scored) or all 0/1",
    )
    return labels[scored].reset_index(drop=True)
