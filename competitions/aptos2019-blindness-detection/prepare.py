"""Prepare ``aptos2019-blindness-detection`` from Kaggle's files.

Kaggle's test grades were never published, so the graded ``train.csv`` (3,662 photographs) is split
again: 10 % of its rows become the test set, drawn with scikit-learn's ``train_test_split`` at
``random_state=0``, the split MLE-bench uses, so scores here compare with published MLE-bench
results. Kaggle's ``id_code`` values are random hexadecimal names, so they stay. Every photograph
is placed into ``public/train_images/`` or ``public/test_images/`` (a hard link where the file
system allows, else a copy), one file at a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_prepared
from pytest_mlebench.placing import place_file

COLUMNS = ["id_code", "diagnosis"]
GRADES = (0, 1, 2, 3, 4)
TEST_FRACTION = 0.1
SEED = 0
SAMPLE_GRADE = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv`` and its photographs into train and test."""
    source = _read_grades(raw / "train.csv")
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    _place_images(raw / "train_images", public / "train_images", train["id_code"])
    _place_images(raw / "train_images", public / "test_images", test["id_code"])
    answers = test.reset_index(drop=True)
    write_prepared(
        public,
        private,
        train=train.reset_index(drop=True),
        test=answers[["id_code"]],
        answers=answers,
        sample=answers.assign(diagnosis=SAMPLE_GRADE),
        id_column="id_code",
    )


def _read_grades(path: Path) -> pd.DataFrame:
    raw_file(path)
    grades = pd.read_csv(path, dtype={"id_code": str})
    require(list(grades.columns) == COLUMNS, f"{path.name} has columns {list(grades.columns)}")
    unknown = set(grades["diagnosis"]) - set(GRADES)
    require(not unknown, f"{path.name}: grades {sorted(unknown)} are outside 0-4")
    return grades


def _place_images(source: Path, target: Path, ids: Iterable[str]) -> None:
    for image_id in ids:
        name = f"{image_id}.png"
        place_file(source / name, target / name)
