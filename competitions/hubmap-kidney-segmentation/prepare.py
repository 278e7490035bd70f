"""Prepare ``hubmap-kidney-segmentation`` from Kaggle's files.

Kaggle's test masks were never published, so the 15 labelled images of ``train.csv`` are split
again exactly as MLE-bench splits them, so the same images are held out: scikit-learn's
``train_test_split(train_size=12, test_size=3, random_state=0)`` over the rows in file order.

TIFFs and JSON files are placed, never decoded. Train images keep their TIFF, their glomerulus
polygons (``<id>.json``) and ``<id>-anatomical-structure.json``; test images keep the TIFF and the
anatomical structure only: their ``<id>.json`` is the answer drawn as polygons (MLE-bench copies
it; the leak is removed here). The answers carry each test image's width and height from
``HuBMAP-20-dataset_information.csv``, which bound its runs; the public copy of that file keeps
the labelled images' rows. The sample submission is an empty mask for every test image (at the
top of ``public/`` only; MLE-bench also copies it into ``test/``).
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

ID, TARGET, ANSWER = "id", "predicted", "encoding"
INFO = "HuBMAP-20-dataset_information.csv"
SIZE_COLUMNS = ["width_pixels", "height_pixels"]


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Hold out 3 of the 15 labelled images as MLE-bench; strip their polygon files."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == [ID, ANSWER], f"train.csv columns are {list(source.columns)}")
    info = pd.read_csv(raw_file(raw / INFO), dtype=str, keep_default_na=False)
    require({"image_file", *SIZE_COLUMNS} <= set(info.columns), f"{INFO} lacks image_file or sizes")
    image_ids = info["image_file"].str.replace(".tiff", "", regex=False)
    train, test = train_test_split(source, train_size=12, test_size=3, random_state=0)
    sizes = info.assign(**{ID: image_ids})[[ID, *SIZE_COLUMNS]]
    answers = test.merge(sizes, on=ID, how="left", validate="one_to_one")
    require(answers[SIZE_COLUMNS].ne("").all().all(), f"{INFO} lacks a test image's size")
    sample = answers[[ID]].assign(**{TARGET: ""})
    check_disjoint_ids(train[ID], answers[ID])
    check_answers(answers[[ID]], answers, sample, ID)
    write_csv(train, public / "train.csv")
    write_csv(info[image_ids.isin(set(source[ID]))], public / INFO)
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    images = raw_folder(raw / "train")
    place_files(
        (images / name, public / "train" / name)
        for image in train[ID]
        for name in (f"{image}.tiff", f"{image}.json", f"{image}-anatomical-structure.json")
    )
    place_files(
        (images / name, public / "test" / name)
        for image in answers[ID]
        for name in (f"{image}.tiff", f"{image}-anatomical-structure.json")
    )
