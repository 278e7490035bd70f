"""Prepare ``leaf-classification`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train.csv`` (990 leaves, 99
species) is split again: 10 % of its rows become the test set, drawn with scikit-learn's
``train_test_split`` at ``random_state=0``, the split MLE-bench uses, so scores here compare with
published MLE-bench results. Kaggle's ids are anonymous numbers that do not follow the species,
so they stay, and so do the image names (``images/<id>.jpg``); only the images of the new train
and test leaves are placed (hard links where possible). The species columns and their order come
from Kaggle's ``sample_submission.csv``. The sample submission gives every species 1/99.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_prepared
from pytest_mlebench.placing import place_file

ID = "id"
TARGET = "species"
SPECIES_COUNT = 99
TEST_FRACTION = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv``; write one-hot answers and place the leaves' images."""
    species = _species(raw / "sample_submission.csv")
    source = _read_train(raw / "train.csv", species)
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    for leaf in (*train[ID], *test[ID]):
        place_file(raw / "images" / f"{leaf}.jpg", public / "images" / f"{leaf}.jpg")
    answers = pd.DataFrame({ID: test[ID].to_numpy()})
    for name in species:
        answers[name] = (test[TARGET].to_numpy() == name).astype("int64")
    sample = pd.DataFrame({ID: test[ID].to_numpy()})
    for name in species:
        sample[name] = 1 / len(species)
    write_prepared(
        public,
        private,
        train=train.reset_index(drop=True),
        test=test.drop(columns=[TARGET]).reset_index(drop=True),
        answers=answers,
        sample=sample,
        id_column=ID,
    )


def _species(path: Path) -> list[str]:
    raw_file(path)
    header = list(pd.read_csv(path, nrows=0).columns)
    require(
        header[:1] == [ID] and len(header) == SPECIES_COUNT + 1,
        f"sample_submission.csv should hold {ID!r} and {SPECIES_COUNT} species columns",
    )
    return header[1:]


def _read_train(path: Path, species: list[str]) -> pd.DataFrame:
    raw_file(path)
    source = pd.read_csv(path)
    require(
        list(source.columns[:2]) == [ID, TARGET],
        f"train.csv should start with {ID!r} and {TARGET!r}; got {list(source.columns[:2])}",
    )
    unknown = set(source[TARGET]) - set(species)
    require(
        not unknown, f"train.csv has species that are not submission columns: {sorted(unknown)}"
    )
    return source
