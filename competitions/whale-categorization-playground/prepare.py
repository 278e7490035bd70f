"""Prepare ``whale-categorization-playground`` from Kaggle's files.

Kaggle's test whales were never published, so the labelled ``train.csv`` (9,850 photos of 4,251
ids, ``new_whale`` among them) is split again exactly as MLE-bench splits it, so the same photos
are held out: the ids are visited in order of first appearance; an id with at least two photos
sends one to train and one to test (pandas' ``sample(2, random_state=0)`` of its rows, first to
train), a photo alone draws its side from one ``numpy.random.default_rng(0)``
(``choice(["train", "test"], p=[0.9, 0.1])``); the photos still undecided go through
scikit-learn's ``train_test_split(test_size=0.1, random_state=0)``. A test whale with no train
photo is answered ``new_whale``, as on Kaggle. Both sides keep the file order.

Photos are placed, never decoded. The sample submission is MLE-bench's five guesses for every
test photo.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
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

ID, TARGET = "Image", "Id"
NEW_WHALE = "new_whale"
SAMPLE_GUESSES = "new_whale w_1287fbc w_98baff9 w_7554f44 w_1eafe46"
TEST_SHARE = 0.1


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split ``train.csv`` as MLE-bench; test whales unseen in train become ``new_whale``."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == [ID, TARGET], f"train.csv columns are {list(source.columns)}")
    side = _sides(source)
    train, answers = source[side == "train"], source[side == "test"].copy()
    unseen = ~answers[TARGET].isin(set(train[TARGET]))
    answers.loc[unseen, TARGET] = NEW_WHALE
    sample = answers.assign(**{TARGET: SAMPLE_GUESSES})
    check_disjoint_ids(train[ID], answers[ID])
    check_answers(answers[[ID]], answers, sample, ID)
    write_csv(train, public / "train.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    photos = raw_folder(raw / "train")
    for name, rows in (("train", train), ("test", answers)):
        place_files((photos / image, public / name / image) for image in rows[ID])


def _sides(source: pd.DataFrame) -> pd.Series:
    """``"train"`` or ``"test"`` for every row, drawn as MLE-bench draws them."""
    side = pd.Series("undecided", index=source.index)
    rng = np.random.default_rng(0)
    positions = source.groupby(TARGET).indices
    for whale in source[TARGET].unique():  # in order of first appearance, as MLE-bench
        photos = source.iloc[positions[whale]]
        if len(photos) >= 2:
            chosen = photos.sample(2, random_state=0).index
            side[chosen[0]], side[chosen[1]] = "train", "test"
        else:
            side[photos.index[0]] = rng.choice(
                ["train", "test"], replace=False, p=[1 - TEST_SHARE, TEST_SHARE]
            )
    undecided = side.index[side == "undecided"]
    if len(undecided):
        rest_train, rest_test = train_test_split(undecided, test_size=TEST_SHARE, random_state=0)
        side[rest_train], side[rest_test] = "train", "test"
    return side
