"""Prepare ``tgs-salt-identification-challenge`` from Kaggle's files.

Kaggle's test masks were never published, so the 4,000 labelled images of
``competition_data/train.csv`` are split again exactly as MLE-bench splits them, so the same
images are held out: scikit-learn's ``train_test_split(test_size=0.25, random_state=0)`` over the
rows in file order (an empty mask read as the empty string). Both sides are written sorted by id.

Images and masks are PNGs, placed, never decoded: train images with their masks, test images
alone. ``depths.csv`` keeps the train images' depths only, as MLE-bench's. The sample submission
is MLE-bench's ``1 1`` (the first pixel) for every test image.
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

ID, TARGET = "id", "rle_mask"
SAMPLE_MASK = "1 1"
TEST_SHARE = 0.25


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split the labelled images 75/25 as MLE-bench; copy PNGs; keep only train depths."""
    data = raw_folder(raw / "competition_data")
    source = pd.read_csv(raw_file(data / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == [ID, TARGET], f"train.csv columns are {list(source.columns)}")
    train, answers = train_test_split(source, test_size=TEST_SHARE, random_state=0)
    train, answers = train.sort_values(ID), answers.sort_values(ID)
    sample = answers.assign(**{TARGET: SAMPLE_MASK})
    check_disjoint_ids(train[ID], answers[ID])
    check_answers(answers[[ID]], answers, sample, ID)
    depths = pd.read_csv(raw_file(raw / "depths.csv"), dtype=str)
    require(ID in depths.columns, f"depths.csv columns are {list(depths.columns)}")
    write_csv(train, public / "train.csv")
    write_csv(depths[depths[ID].isin(set(train[ID]))].sort_values(ID), public / "depths.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    images, masks = raw_folder(data / "train" / "images"), raw_folder(data / "train" / "masks")
    place_files(
        (folder / f"{name}.png", public / "train" / kind / f"{name}.png")
        for name in train[ID]
        for folder, kind in ((images, "images"), (masks, "masks"))
    )
    place_files(
        (images / f"{name}.png", public / "test" / "images" / f"{name}.png") for name in answers[ID]
    )
