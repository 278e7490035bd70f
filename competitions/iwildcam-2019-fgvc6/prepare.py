"""Prepare ``iwildcam-2019-fgvc6`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled images of ``train.csv`` are split
again, by camera location as MLE-bench does: the locations in order of first appearance go
through scikit-learn's ``train_test_split(test_size=0.1, random_state=8)`` (the original's seed,
chosen there so that about 44 % of the images are held out, Kaggle's own share), and every image
of a held-out location is a test image. Rows keep Kaggle's ids and order; images are placed under
``train_images/`` or ``test_images/`` (hard links where possible). The sample submission is the
original's: category 0 ("empty") everywhere.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import (
    check_answers,
    check_disjoint_ids,
    raw_file,
    require,
    write_csv,
)
from pytest_mlebench.placing import place_file

ID = "id"
TARGET = "category_id"
LOCATION = "location"
TEST_SIZE = 0.1
SEED = 8
SAMPLE_CATEGORY = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split ``train.csv`` by location; place images; answers are ``Id,Category``."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype={ID: str})
    missing = {ID, TARGET, LOCATION} - set(source.columns)
    require(not missing, f"train.csv lacks the columns {sorted(missing)}")
    locations = list(pd.unique(source[LOCATION]))
    require(len(locations) >= 2, "train.csv has fewer than two camera locations")
    _, test_locations = train_test_split(locations, test_size=TEST_SIZE, random_state=SEED)
    is_test = source[LOCATION].isin(test_locations)
    train, test = source[~is_test], source[is_test]
    photos = _photo_folder(raw)
    for part, rows in (("train", train), ("test", test)):
        for image in rows[ID]:
            place_file(photos / f"{image}.jpg", public / f"{part}_images" / f"{image}.jpg")
    answers = pd.DataFrame({"Id": test[ID].to_numpy(), "Category": test[TARGET].to_numpy()})
    sample = answers.assign(Category=SAMPLE_CATEGORY)
    check_disjoint_ids(train[ID], test[ID])
    check_answers(answers, answers, sample, "Id")
    write_csv(train.reset_index(drop=True), public / "train.csv")
    write_csv(test.drop(columns=[TARGET]).reset_index(drop=True), public / "test.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _photo_folder(raw: Path) -> Path:
    """Where ``train_images.zip`` was unpacked: its own folder, or ``raw/`` beside it."""
    folder = raw / "train_images"
    return folder if folder.is_dir() else raw
