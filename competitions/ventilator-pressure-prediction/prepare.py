"""Prepare ``ventilator-pressure-prediction`` from Kaggle's ``train.csv``.

Kaggle's test pressures were never published, so the labelled ``train.csv`` (75,450 breaths of
80 time steps, 6,036,000 rows) is split again by breath, as MLE-bench does: the sorted breath ids
go through scikit-learn's ``train_test_split(test_size=0.1, random_state=0)``, so the same 7,545
breaths are held out and scores compare with published MLE-bench results. Each part keeps the
split's (random) breath order and each breath its time order; ``id`` is renumbered from 1 in
each part, as there (Kaggle's own train and test ids both start at 1 too).

The score is the MAE over the inspiratory phase only (``u_out == 0``), as on Kaggle: the answers
carry ``scored`` (1 where ``u_out`` is 0) beside ``pressure``. The sample submission predicts a
pressure of 0 everywhere.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, raw_file, require

ID, GROUP, TARGET = "id", "breath_id", "pressure"
COLUMNS = [ID, GROUP, "R", "C", "time_step", "u_in", "u_out", TARGET]
DTYPES = {
    ID: "int64", GROUP: "int64", "R": "int64", "C": "int64",
    "time_step": "float64", "u_in": "float64", "u_out": "int64", TARGET: "float64",
}  # fmt: skip
TEST_SIZE = 0.1
SEED = 0
FLOAT_FORMAT = "%.10g"
"""Floats are written as MLE-bench writes them: ten significant digits round-trip Kaggle's."""


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split ``train.csv`` by breath into public train/test and ``id,pressure,scored`` answers."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=DTYPES)
    require(list(source.columns) == COLUMNS, f"train.csv columns are {list(source.columns)}")
    require(source["u_out"].isin([0, 1]).all(), "train.csv 'u_out' should hold only 0 and 1")
    breaths = np.unique(source[GROUP].to_numpy())
    require(len(breaths) >= 10, f"train.csv has {len(breaths)} breaths; expected 75,450")
    train_breaths, test_breaths = train_test_split(breaths, test_size=TEST_SIZE, random_state=SEED)
    train, test = _rows_of(source, train_breaths), _rows_of(source, test_breaths)
    answers = pd.DataFrame(
        {ID: test[ID], TARGET: test[TARGET], "scored": (test["u_out"] == 0).astype(int)}
    )
    require(bool(answers["scored"].any()), "the test breaths have no inspiratory (u_out 0) rows")
    test = test.drop(columns=[TARGET])
    sample = pd.DataFrame({ID: test[ID], TARGET: 0})
    # Both parts number their rows from 1, as Kaggle's files do: ids are unique within a part.
    check_answers(test, answers, sample, ID)
    require(not set(train[GROUP]) & set(test[GROUP]), "train and test share breaths")
    for frame, path in (
        (train, public / "train.csv"),
        (test, public / "test.csv"),
        (sample, public / "sample_submission.csv"),
        (answers, private / "answers.csv"),
    ):
        _write(frame, path)


def _rows_of(source: pd.DataFrame, breaths: np.ndarray) -> pd.DataFrame:
    """The rows of ``breaths``, breath by breath in the given order, each in file order."""
    rank = pd.Series(np.arange(len(breaths)), index=breaths)
    rows = source[source[GROUP].isin(breaths)]
    order = np.argsort(rank.loc[rows[GROUP]].to_numpy(), kind="stable")
    part = rows.iloc[order].reset_index(drop=True)
    part[ID] = np.arange(1, len(part) + 1)
    return part


def _write(frame: pd.DataFrame, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    frame.to_csv(path, index=False, lineterminator="\n", float_format=FLOAT_FORMAT)
