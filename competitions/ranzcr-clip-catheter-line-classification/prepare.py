"""Prepare ``ranzcr-clip-catheter-line-classification`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train.csv`` is split again: 10 % of
its rows become the test set, drawn with scikit-learn's ``train_test_split`` at
``random_state=0``, the split MLE-bench uses, so scores here compare with published MLE-bench
results. That split is by image, not by patient, as in MLE-bench: one patient's other X-rays can
sit on the train side, but the test side carries no ``PatientID`` to link them by. Study ids are
random DICOM UIDs and stay; each test X-ray is placed under ``public/test/``, each train X-ray
under ``public/train/``, by hard link where possible. The segmentation annotations
(``train_annotations.csv``, whose ``label`` names the class) keep only train rows.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_csv, write_prepared
from pytest_mlebench.placing import place_file

ID_COLUMN = "StudyInstanceUID"
CLASSES = (
    "ETT - Abnormal",
    "ETT - Borderline",
    "ETT - Normal",
    "NGT - Abnormal",
    "NGT - Borderline",
    "NGT - Incompletely Imaged",
    "NGT - Normal",
    "CVC - Abnormal",
    "CVC - Borderline",
    "CVC - Normal",
    "Swan Ganz Catheter Present",
)
PATIENT_COLUMN = "PatientID"
ANNOTATION_COLUMNS = (ID_COLUMN, "label", "data")
SAMPLE_PROBABILITY = 0
TEST_FRACTION = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv`` into train and test; place the X-rays; filter annotations."""
    source = _read_table(raw / "train.csv", (ID_COLUMN, *CLASSES, PATIENT_COLUMN))
    labels = source[list(CLASSES)]
    require(bool(labels.isin([0, 1]).all().all()), "train.csv: labels other than 0/1")
    require(source[ID_COLUMN].is_unique, f"train.csv: repeated {ID_COLUMN} values")
    annotations = _read_table(raw / "train_annotations.csv", ANNOTATION_COLUMNS)
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    for part, frame in (("train", train), ("test", test)):
        for study in frame[ID_COLUMN]:
            place_file(raw / "train" / f"{study}.jpg", public / part / f"{study}.jpg")
    answers = test[[ID_COLUMN, *CLASSES]].reset_index(drop=True)
    sample = answers[[ID_COLUMN]].assign(**dict.fromkeys(CLASSES, SAMPLE_PROBABILITY))
    kept = annotations[annotations[ID_COLUMN].isin(set(train[ID_COLUMN]))]
    write_csv(kept.reset_index(drop=True), public / "train_annotations.csv")
    write_prepared(
        public,
        private,
        train=train.reset_index(drop=True),
        test=answers[[ID_COLUMN]],
        answers=answers,
        sample=sample,
        id_column=ID_COLUMN,
    )


def _read_table(path: Path, columns: tuple[str, ...]) -> pd.DataFrame:
    raw_file(path)
    frame = pd.read_csv(path, dtype={ID_COLUMN: str, PATIENT_COLUMN: str})
    require(
        list(frame.columns) == list(columns),
        f"{path.name}: unexpected columns {list(frame.columns)}, expected {list(columns)}",
    )
    return frame
