"""Prepare ``facebook-recruiting-iii-keyword-extraction`` from Kaggle's files.

Kaggle's test tags were never published, so the labelled ``Train.csv`` (6,034,195 Stack Exchange
questions, about 7 GB) is split again: 10 % of its rows become the test set, drawn with
scikit-learn's ``train_test_split`` at ``random_state=0`` over the file's rows in their order —
the split MLE-bench uses, so the same questions are held out and scores compare with published
MLE-bench results. The split depends only on the row count, so the file is streamed twice in
chunks (count, then route each row) instead of being held in memory; train rows keep the file's
order, test rows take the split's. The sample submission predicts the five most common tags
for every question, as Kaggle's and the original's.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv

ID = "Id"
TARGET = "Tags"
COLUMNS = [ID, "Title", "Body", TARGET]
SAMPLE_TAGS = "javascript c# python php java"
TEST_FRACTION = 0.1
SEED = 0
CHUNK_ROWS = 200_000


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``Train.csv``; the answers are the held-out questions' tags."""
    source = raw_file(raw / "Train.csv")
    rows = sum(len(chunk) for chunk in _chunks(source, usecols=[ID]))
    require(rows > 1, f"{source} holds no questions")
    _, test_rows = train_test_split(np.arange(rows), test_size=TEST_FRACTION, random_state=SEED)
    is_test = np.zeros(rows, dtype=bool)
    is_test[test_rows] = True
    held_out = []
    train_path = public / "train.csv"
    start = 0
    for chunk in _chunks(source):
        require(list(chunk.columns) == COLUMNS, f"Train.csv columns {list(chunk.columns)}")
        mask = is_test[start : start + len(chunk)]
        chunk.index = np.arange(start, start + len(chunk))
        held_out.append(chunk[mask])
        train = chunk[~mask]
        train.to_csv(
            train_path,
            mode="w" if start == 0 else "a",
            header=start == 0,
            index=False,
            lineterminator="\n",
            encoding="utf-8",
        )
        start += len(chunk)
    test = pd.concat(held_out).loc[test_rows].reset_index(drop=True)
    answers = test[[ID, TARGET]]
    sample = pd.DataFrame({ID: test[ID], TARGET: SAMPLE_TAGS})
    check_answers(test, answers, sample, ID)
    write_csv(test.drop(columns=[TARGET]), public / "test.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _chunks(path: Path, usecols: list[str] | None = None) -> Iterator[pd.DataFrame]:
    yield from pd.read_csv(
        path, dtype=str, keep_default_na=False, usecols=usecols, chunksize=CHUNK_ROWS
    )
