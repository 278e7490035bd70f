"""Prepare ``vinbigdata-chest-xray-abnormalities-detection`` from Kaggle's files.

Kaggle's test labels were never published, so the images of ``train.csv`` are split again as
MLE-bench does: the distinct ``image_id`` values in order of first appearance go through
scikit-learn's ``train_test_split(test_size=0.1, random_state=0)``, so the same images are held
out and scores compare with published MLE-bench results. Public ``train.csv`` keeps every
radiologist's row of the train images. The answers follow MLE-bench's consensus stand-in (Kaggle's
test was labelled by consensus; train by three radiologists apart): per image and class the first
row in file order; "No finding" (class 14) gets the dummy box ``0 0 1 1``. They are written in
submission form, one ``image_id`` per row, each box ``class 1 x_min y_min x_max y_max``. Each
image's DICOM file (``<image_id>.dicom``) is placed unchanged — linked or copied, never decoded.
The sample submission predicts ``14 1 0 0 1 1`` for every test image.
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

ID, TARGET = "image_id", "PredictionString"
COLUMNS = [ID, "class_name", "class_id", "rad_id", "x_min", "y_min", "x_max", "y_max"]
CORNERS = ["x_min", "y_min", "x_max", "y_max"]
NO_FINDING = 14
TEST_SIZE = 0.1
SEED = 0


def _number(value: float) -> str:
    return repr(float(value))


def _answers(rows: pd.DataFrame, order: list[str]) -> pd.DataFrame:
    """One consensus box per image and class, joined into each image's PredictionString."""
    first = rows.drop_duplicates(subset=[ID, "class_id"], keep="first")
    first = first.sort_values([ID, "class_id"], kind="stable")
    corners = first[CORNERS].fillna(0.0).astype(float)
    no_finding = first["class_id"] == NO_FINDING
    corners.loc[no_finding, ["x_max", "y_max"]] = 1.0
    boxes = [
        " ".join([str(int(label)), "1", *map(_number, values)])
        for label, values in zip(first["class_id"], corners.to_numpy(), strict=True)
    ]
    joined = pd.Series(boxes, index=first.index).groupby(first[ID]).agg(" ".join)
    return pd.DataFrame({ID: order, TARGET: joined.loc[order].to_numpy()})


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split by image; write the consensus answers; place each image's DICOM file by side."""
    rows = pd.read_csv(raw_file(raw / "train.csv"), dtype={ID: str})
    columns = list(rows.columns)
    require(columns == COLUMNS, f"train.csv columns are {columns}")
    images = rows[ID].drop_duplicates().to_numpy(dtype=object)
    require(len(images) >= 10, f"train.csv has {len(images)} images; expected 15000")
    train_ids, test_ids = train_test_split(images, test_size=TEST_SIZE, random_state=SEED)
    train = rows[rows[ID].isin(train_ids)]
    answers = _answers(rows[rows[ID].isin(test_ids)], list(test_ids))
    sample = pd.DataFrame({ID: list(test_ids), TARGET: f"{NO_FINDING} 1 0 0 1 1"})
    check_disjoint_ids(train_ids, test_ids)
    check_answers(answers[[ID]], answers, sample, ID)
    folder = raw_folder(raw / "train")
    write_csv(train, public / "train.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    for side, ids in (("train", train_ids), ("test", test_ids)):
        files = [raw_file(folder / f"{image}.dicom") for image in ids]
        place_files((path, public / side / path.name) for path in files)
