"""Prepare ``rsna-miccai-brain-tumor-radiogenomic-classification`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train_labels.csv`` (585 cases) is
split again as MLE-bench does: its rows in file order, with ``BraTS21ID`` read as the five-digit
text it is, go through scikit-learn's ``train_test_split(test_size=0.1, random_state=0)``, so
the same cases are held out and scores compare with published MLE-bench results. Every DICOM
file of a case's folder (``<scan>/Image-<n>.dcm``) is placed unchanged — linked or copied, never
decoded — under ``public/train/<id>/`` or ``public/test/<id>/``. Kaggle's own test cases are not
used (no labels). The sample submission predicts 0.5.
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

ID, TARGET = "BraTS21ID", "MGMT_value"
TEST_SIZE = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split ``train_labels.csv`` by case; place each case's DICOM files by side."""
    labels = pd.read_csv(raw_file(raw / "train_labels.csv"), dtype={ID: str})
    columns = list(labels.columns)
    require(columns == [ID, TARGET], f"train_labels.csv columns are {columns}")
    require(len(labels) >= 10, f"train_labels.csv has {len(labels)} rows; expected 585")
    train, answers = train_test_split(labels, test_size=TEST_SIZE, random_state=SEED)
    sample = pd.DataFrame({ID: answers[ID], TARGET: 0.5})
    check_disjoint_ids(train[ID], answers[ID])
    check_answers(answers[[ID]], answers, sample, ID)
    cases = raw_folder(raw / "train")
    write_csv(train, public / "train_labels.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    for side, ids in (("train", train[ID]), ("test", answers[ID])):
        for case in ids:
            folder = raw_folder(cases / case)
            files = sorted(path for path in folder.rglob("*.dcm") if path.is_file())
            require(bool(files), f"{folder}: no DICOM files; is the download complete?")
            place_files((path, public / side / case / path.relative_to(folder)) for path in files)
