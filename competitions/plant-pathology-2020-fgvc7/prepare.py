"""Prepare ``plant-pathology-2020-fgvc7`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train.csv`` is split again: 10 % of
its rows become the test set, drawn with scikit-learn's ``train_test_split`` at
``random_state=0``, the split MLE-bench uses, so scores here compare with published MLE-bench
results. Images are renamed ``Train_<i>`` and ``Test_<i>`` by their position in the new split
(the split's shuffled order, which says nothing about the label) and placed under
``public/images/`` by hard link where possible. Kaggle's own test images are not used.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_prepared
from pytest_mlebench.placing import place_file

ID_COLUMN = "image_id"
CLASSES = ("healthy", "multiple_diseases", "rust", "scab")
SAMPLE_PROBABILITY = 0.25
TEST_FRACTION = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv`` into train and test, rename and place the images."""
    source = _read_train(raw / "train.csv")
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    new_ids = {old: f"Train_{i}" for i, old in enumerate(train[ID_COLUMN])}
    new_ids.update({old: f"Test_{i}" for i, old in enumerate(test[ID_COLUMN])})
    for old, new in new_ids.items():
        place_file(raw / "images" / f"{old}.jpg", public / "images" / f"{new}.jpg")
    train = train.assign(**{ID_COLUMN: train[ID_COLUMN].map(new_ids)}).reset_index(drop=True)
    answers = test.assign(**{ID_COLUMN: test[ID_COLUMN].map(new_ids)}).reset_index(drop=True)
    sample = answers[[ID_COLUMN]].assign(**dict.fromkeys(CLASSES, SAMPLE_PROBABILITY))
    write_prepared(
        public,
        private,
        train=train,
        test=answers[[ID_COLUMN]],
        answers=answers,
        sample=sample,
        id_column=ID_COLUMN,
    )


def _read_train(path: Path) -> pd.DataFrame:
    raw_file(path)
    source = pd.read_csv(path, dtype={ID_COLUMN: str})
    require(
        list(source.columns) == [ID_COLUMN, *CLASSES],
        f"{path.name}: unexpected columns {list(source.columns)}",
    )
    labels = source[list(CLASSES)]
    require(bool(labels.isin([0, 1]).all().all()), f"{path.name}: labels other than 0/1")
    require(source[ID_COLUMN].is_unique, f"{path.name}: repeated {ID_COLUMN} values")
    return source
