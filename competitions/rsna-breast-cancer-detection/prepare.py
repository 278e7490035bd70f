"""Prepare ``rsna-breast-cancer-detection`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train.csv`` (54,706 images of
11,913 patients) is split again by patient as MLE-bench does: the ``patient_id``s in order of
first appearance go through scikit-learn's ``train_test_split(test_size=0.1,
random_state=42)``, so the same patients are held out and scores compare with published
MLE-bench results.

Public ``train.csv`` keeps every column for the train patients; public ``test.csv`` has
Kaggle's test columns (``site_id, patient_id, image_id, laterality, view, age, implant,
machine_id, prediction_id``) for every test image, ``prediction_id`` being
``<patient_id>_<laterality>``. The answers have one row per breast (its images share one
label; the first is taken, as MLE-bench does). Each image ``<patient_id>/<image_id>.dcm`` is
placed unchanged (linked or copied, never decoded) under ``public/train_images/`` or
``public/test_images/``. The sample submission predicts the train cancer rate everywhere, as
MLE-bench's.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import (
    check_answers,
    raw_file,
    raw_folder,
    require,
    write_csv,
)
from pytest_mlebench.placing import place_files

ID, PATIENT, IMAGE, TARGET = "prediction_id", "patient_id", "image_id", "cancer"
TRAIN_COLUMNS = [
    "site_id", PATIENT, IMAGE, "laterality", "view", "age", TARGET, "biopsy", "invasive",
    "BIRADS", "implant", "density", "machine_id", "difficult_negative_case",
]  # fmt: skip
TEST_COLUMNS = ["site_id", PATIENT, IMAGE, "laterality", "view", "age", "implant", "machine_id"]
TEST_SIZE = 0.1
SEED = 42


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split ``train.csv`` by patient; one answer per breast; place the DICOM files by side."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == TRAIN_COLUMNS, f"train.csv columns are {list(source.columns)}")
    patients = pd.unique(source[PATIENT].to_numpy(dtype=object))
    require(len(patients) >= 10, f"train.csv has {len(patients)} patients; expected 11,913")
    train_patients, test_patients = train_test_split(
        patients, test_size=TEST_SIZE, random_state=SEED
    )
    train = source[source[PATIENT].isin(set(train_patients))]
    held_out = source[source[PATIENT].isin(set(test_patients))]
    test = held_out[TEST_COLUMNS].assign(**{ID: held_out[PATIENT] + "_" + held_out["laterality"]})
    labelled = test[[ID]].assign(**{TARGET: held_out[TARGET].astype(int)})
    answers = labelled.groupby(ID, as_index=False)[TARGET].first()
    rate = float(train[TARGET].astype(int).mean())
    sample = answers.assign(**{TARGET: rate})
    require(not set(train[PATIENT]) & set(test[PATIENT]), "a patient is in train and test")
    check_answers(test.drop_duplicates(ID), answers, sample, ID)
    write_csv(train, public / "train.csv")
    write_csv(test, public / "test.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    images = raw_folder(raw / "train_images")
    for side, part in (("train_images", train), ("test_images", held_out)):
        place_files(
            (images / patient / f"{image}.dcm", public / side / patient / f"{image}.dcm")
            for patient, image in zip(part[PATIENT], part[IMAGE], strict=True)
        )
