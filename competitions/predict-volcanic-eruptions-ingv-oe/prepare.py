"""Prepare ``predict-volcanic-eruptions-ingv-oe`` from Kaggle's files.

Kaggle's test times were never published, so the labelled segments of ``train.csv`` (4,431
ten-minute recordings of ten seismic sensors, one CSV each under ``train/``) are split again:
scikit-learn's ``train_test_split(test_size=0.1, random_state=0)`` over ``train.csv``'s rows, the
split MLE-bench uses, so the same 444 segments are held out and scores compare with published
MLE-bench results. Each segment's file goes to ``public/train/`` or ``public/test/`` under its
own name (placed, not copied, where the file system allows); Kaggle's own unlabelled ``test/``
segments are not used. Rows keep the split's order; values are copied as text. The sample
submission predicts 0 everywhere, as MLE-bench's.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import (
    check_answers,
    check_disjoint_ids,
    raw_file,
    raw_folder,
    require,
    write_csv,
)
from pytest_mlebench.placing import place_files

ID, TARGET = "segment_id", "time_to_eruption"
TEST_SIZE = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split ``train.csv``'s segments; place each segment file on its side of the split."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == [ID, TARGET], f"train.csv columns are {list(source.columns)}")
    require(len(source) >= 10, f"train.csv has {len(source)} segments; expected 4,431")
    segments = raw_folder(raw / "train")
    train, test = train_test_split(source, test_size=TEST_SIZE, random_state=SEED)
    check_disjoint_ids(train[ID], test[ID])
    missing = [s for s in source[ID] if not (segments / f"{s}.csv").is_file()]
    require(not missing, f"{len(missing)} segment files are missing from train/: {missing[:1]}")
    sample = pd.DataFrame({ID: test[ID], TARGET: 0})
    check_answers(test[[ID]], test, sample, ID)
    write_csv(train, public / "train.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(test, private / "answers.csv")
    place_files(
        (segments / f"{segment}.csv", public / part / f"{segment}.csv")
        for part, frame in (("train", train), ("test", test))
        for segment in frame[ID]
    )
