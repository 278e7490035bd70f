"""Prepare ``petfinder-pawpularity-score`` from Kaggle's files.

Kaggle's test set (about 6,800 photos; the download's ``test.csv`` holds only placeholder rows)
was never published, so the labelled ``train.csv`` (9,912 photos) is split again: 10 % of its rows
become the test set, drawn with scikit-learn's ``train_test_split`` at ``random_state=0`` over the
file's rows in their order — the split MLE-bench uses, so the same photos are held out and scores
compare with published MLE-bench results. Kaggle's ids are random hex strings (the photo's file
name) and stay; each photo is placed under ``train/`` or ``test/`` (hard links where possible).
The sample submission is the original's: ``numpy.random.default_rng(0)`` draws a score uniformly
from 1 to 100 per photo, rounded to two decimals.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, raw_folder, require, write_prepared
from pytest_mlebench.placing import place_file

ID = "Id"
TARGET = "Pawpularity"
FEATURES = [
    "Subject Focus", "Eyes", "Face", "Near", "Action", "Accessory",
    "Group", "Collage", "Human", "Occlusion", "Info", "Blur",
]  # fmt: skip
COLUMNS = [ID, *FEATURES, TARGET]
TEST_FRACTION = 0.1
SEED = 0
SAMPLE_SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv``; place each photo with its part; answers are the scores."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype={ID: str})
    require(list(source.columns) == COLUMNS, f"train.csv columns {list(source.columns)}")
    require(bool(source[TARGET].between(1, 100).all()), "train.csv Pawpularity must be 1 to 100")
    photos = raw_folder(raw / "train")
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    for part, rows in (("train", train), ("test", test)):
        for photo in rows[ID]:
            name = f"{photo}.jpg"
            place_file(photos / name, public / part / name)
    rng = np.random.default_rng(SAMPLE_SEED)
    sample = pd.DataFrame(
        {ID: test[ID].to_numpy(), TARGET: rng.uniform(1, 100, len(test)).round(2)}
    )
    write_prepared(
        public,
        private,
        train=train.reset_index(drop=True),
        test=test.drop(columns=[TARGET]).reset_index(drop=True),
        answers=test[[ID, TARGET]].reset_index(drop=True),
        sample=sample,
        id_column=ID,
    )
