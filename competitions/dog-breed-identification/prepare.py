"""Prepare ``dog-breed-identification`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``labels.csv`` (10,222 photographs) is
split again: 10 % of its rows become the test set, drawn with scikit-learn's ``train_test_split``
at ``random_state=0``, the split MLE-bench uses, so scores here compare with published MLE-bench
results. Kaggle's ids are random hexadecimal names, so they stay. The 120 breed columns and their
order come from the header of Kaggle's ``sample_submission.csv``; the answers are one-hot over
them. Every photograph is placed into ``public/train/`` or ``public/test/`` (a hard link where
the file system allows, else a copy), one file at a time.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, check_disjoint_ids, raw_file, require, write_csv
from pytest_mlebench.placing import place_file

COLUMNS = ["id", "breed"]
BREEDS = 120
TEST_FRACTION = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``labels.csv`` and its photographs; write the answers one-hot."""
    breeds = kaggle_breeds(raw / "sample_submission.csv")
    source = _read_labels(raw / "labels.csv", breeds)
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    check_disjoint_ids(train["id"], test["id"])
    _place_images(raw / "train", public / "train", train["id"])
    _place_images(raw / "train", public / "test", test["id"])
    test = test.reset_index(drop=True)
    onehot = pd.get_dummies(pd.Categorical(test["breed"], categories=breeds), dtype="int64")
    answers = pd.concat([test[["id"]], onehot], axis=1)
    sample = answers.astype({breed: "float64" for breed in breeds})
    sample[breeds] = 1 / len(breeds)
    check_answers(answers[["id"]], answers, sample, "id")
    write_csv(train.reset_index(drop=True), public / "labels.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def kaggle_breeds(path: Path) -> list[str]:
    """The breed columns of Kaggle's sample submission, in its order (header only)."""
    raw_file(path)
    header = list(pd.read_csv(path, nrows=0).columns)
    require(
        header[:1] == ["id"] and len(set(header[1:])) == BREEDS,
        f"{path.name}: expected id and {BREEDS} breed columns, found {len(header)} columns",
    )
    return header[1:]


def _read_labels(path: Path, breeds: list[str]) -> pd.DataFrame:
    raw_file(path)
    labels = pd.read_csv(path, dtype=str)
    require(list(labels.columns) == COLUMNS, f"{path.name} has columns {list(labels.columns)}")
    unknown = set(labels["breed"]) - set(breeds)
    require(not unknown, f"{path.name}: breeds {sorted(unknown)[:5]} are not submission columns")
    return labels


def _place_images(source: Path, target: Path, ids: Iterable[str]) -> None:
    for image_id in ids:
        name = f"{image_id}.jpg"
        place_file(source / name, target / name)
