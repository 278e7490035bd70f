"""Prepare ``new-york-city-taxi-fare-prediction`` from Kaggle's files, streaming ``train.csv``.

Kaggle's test fares were never published, so the labelled ``train.csv`` (about 55 million rides,
5.7 GB) is split again: 9,914 rides (the size of Kaggle's test set) become the test set and every
other ride stays in train. The test rows are the ones scikit-learn's
``train_test_split(test_size=9914, random_state=0)`` draws, the split MLE-bench uses, so scores
here compare with published MLE-bench results; that split is a ``RandomState(0)`` shuffle of the
row numbers, so it is computed from the row count alone and the file is never loaded whole:

1. count the rows (a byte scan for line ends);
2. shuffle the row numbers as scikit-learn does and mark the first 9,914 as test;
3. stream the file line by line: test lines are kept (9,914 of them), every other line is
   written unchanged to ``public/train.csv``.

Train rows keep Kaggle's file order (MLE-bench writes them shuffled: the same rows, another
order); test rows come in the split's order. Values are copied as text, never re-formatted. A
file of fewer than 19,829 rows (only the test fixtures) gets a 10 % test share instead. The
sample submission predicts a fare of 11.35 everywhere.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pandas as pd

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv
from pytest_mlebench.placing import place_file

KEY = "key"
TARGET = "fare_amount"
COLUMNS = (
    KEY, TARGET, "pickup_datetime", "pickup_longitude", "pickup_latitude", "dropoff_longitude",
    "dropoff_latitude", "passenger_count",
)  # fmt: skip
TEST_ROWS = 9914
SMALL_TEST_FRACTION = 0.1
SAMPLE_FARE = 11.35
SEED = 0
EXTRA_FILES = ("GCP-Coupons-Instructions.rtf",)
_BLOCK_BYTES = 1 << 24


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Stream Kaggle's ``train.csv`` into public train and a held-out test set."""
    source = raw / "train.csv"
    raw_file(source)
    rows = count_rows(source)
    require(rows >= 20, f"train.csv has {rows} rows; expected Kaggle's 55 million")
    test_rows = held_out_rows(rows)
    test = _stream_split(source, test_rows, public / "train.csv")
    answers = test[[KEY, TARGET]]
    sample = pd.DataFrame({KEY: test[KEY], TARGET: SAMPLE_FARE})
    test = test.drop(columns=[TARGET])
    check_answers(test, answers, sample, KEY)
    write_csv(test, public / "test.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    for name in EXTRA_FILES:
        if (raw / name).is_file():
            place_file(raw / name, public / name)


def count_rows(path: Path) -> int:
    """Data rows of a CSV without quoted line breaks: line ends, minus the header."""
    lines, last = 0, b"\n"
    with path.open("rb") as stream:
        while block := stream.read(_BLOCK_BYTES):
            lines += block.count(b"\n")
            last = block[-1:]
    return lines + (last != b"\n") - 1


def held_out_rows(rows: int) -> npt.NDArray[np.int64]:
    """The test rows of ``train_test_split(range(rows), test_size=…, random_state=0)``, in order.

    scikit-learn's shuffle split permutes ``arange(rows)`` with ``RandomState(0)`` and takes the
    first ``test_size`` entries as test; shuffling an int32 range draws the same numbers with half
    the memory (220 MB for 55 million rows).
    """
    size = TEST_ROWS if rows > 2 * TEST_ROWS else int(np.ceil(rows * SMALL_TEST_FRACTION))
    order = np.arange(rows, dtype=np.int32)
    np.random.RandomState(SEED).shuffle(order)
    return order[:size].astype(np.int64)


def _stream_split(source: Path, test_rows: npt.NDArray[np.int64], train_path: Path) -> pd.DataFrame:
    """Write non-test lines to ``train_path``; return the test rows (as text) in split order."""
    is_test = np.zeros(int(test_rows.max()) + 1, dtype=bool)
    is_test[test_rows] = True
    kept: dict[int, str] = {}
    train_path.parent.mkdir(parents=True, exist_ok=True)
    with (
        source.open("r", encoding="utf-8", newline="") as lines,
        train_path.open("w", encoding="utf-8", newline="") as train,
    ):
        header = lines.readline()
        found = tuple(name.strip() for name in header.strip().split(","))
        require(found == COLUMNS, f"train.csv columns are {list(found)}, expected {list(COLUMNS)}")
        train.write(header)
        limit = len(is_test)
        for number, line in enumerate(lines):
            if number < limit and is_test[number]:
                kept[number] = line if line.endswith("\n") else line + "\n"
            else:
                train.write(line)
    require(len(kept) == len(test_rows), "train.csv ended before every test row was read")
    text = header + "".join(kept[int(number)] for number in test_rows)
    test = pd.read_csv(io.StringIO(text), dtype=str, keep_default_na=False)
    require(test[KEY].is_unique, "test keys are not unique")
    return test
