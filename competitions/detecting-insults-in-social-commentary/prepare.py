"""Prepare ``detecting-insults-in-social-commentary`` from Kaggle's files.

Kaggle published the labels of the competition's test set (``test_with_solutions.csv``), so no
split is drawn: as in MLE-bench, Kaggle's ``train.csv`` is the public train set and the labelled
test file is the test set (the later verification set is not used). Rows have no id; the
comment text identifies a row, as in MLE-bench's grader. Kaggle's test file repeats 9 comment
texts (29 rows, the copies of a text sharing one label); each text is kept once, at its first
position, so that every test row has its own id (2,627 rows instead of 2,647). The sample
submission predicts 0.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv
from pytest_mlebench.placing import place_file

ID = "Comment"
TARGET = "Insult"
COLUMNS = (TARGET, "Date", ID)
TEST_FILE = "test_with_solutions.csv"


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Copy Kaggle's train; make the test set, answers and sample from the labelled test file."""
    train = _read(raw / "train.csv")
    test = _unique_comments(_read(raw / TEST_FILE))
    shared = set(train[ID]) & set(test[ID])
    require(not shared, f"{len(shared)} comments are in both train.csv and {TEST_FILE}")
    answers = test[list(COLUMNS)]
    sample = answers.assign(**{TARGET: 0})
    public_test = test[["Date", ID]]
    check_answers(public_test, answers, sample, ID)
    place_file(raw / "train.csv", public / "train.csv")
    write_csv(public_test, public / "test.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _read(path: Path) -> pd.DataFrame:
    raw_file(path)
    frame = pd.read_csv(path, dtype=str, keep_default_na=False)
    missing = [name for name in COLUMNS if name not in frame.columns]
    require(not missing, f"{path.name} lacks the columns {missing}")
    require(set(frame[TARGET]) <= {"0", "1"}, f"{path.name}: {TARGET!r} should hold only 0 and 1")
    return frame.assign(**{TARGET: frame[TARGET].astype("int64")})


def _unique_comments(test: pd.DataFrame) -> pd.DataFrame:
    """Each comment text once, at its first position; repeated texts must share one label."""
    labels = test.groupby(ID, sort=False)[TARGET].nunique()
    conflicting = labels[labels > 1]
    require(
        conflicting.empty,
        f"{len(conflicting)} repeated comments in {TEST_FILE} have different labels",
    )
    return test.drop_duplicates(subset=[ID], keep="first").reset_index(drop=True)
