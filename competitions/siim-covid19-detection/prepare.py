"""Prepare ``siim-covid19-detection`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled studies of ``train_study_level.csv``
are split again as MLE-bench does: its rows in file order go through scikit-learn's
``train_test_split(test_size=0.1, random_state=0)``, so the same studies are held out and scores
compare with published MLE-bench results. Each image of ``train_image_level.csv`` follows its
study (``StudyInstanceUID``). Every DICOM file of a study's folder
(``<study>/<series>/<image>.dcm``) is placed unchanged — linked or copied, never decoded — under
``public/train/`` or ``public/test/``. The answers hold one row per held-out study
(``<label> 1 0 0 1 1``, its one positive class) and one per image (its ``label``: the true
opacity boxes, or ``none 1 0 0 1 1``); the sample submission predicts ``negative`` and ``none``.
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

ID, TARGET = "id", "PredictionString"
STUDY_CLASSES = {
    "Negative for Pneumonia": "negative",
    "Typical Appearance": "typical",
    "Indeterminate Appearance": "indeterminate",
    "Atypical Appearance": "atypical",
}
IMAGE_COLUMNS = [ID, "boxes", "label", "StudyInstanceUID"]
DUMMY_BOX = "1 0 0 1 1"
TEST_SIZE = 0.1
SEED = 0


def _study_answers(studies: pd.DataFrame) -> pd.DataFrame:
    flags = studies[list(STUDY_CLASSES)].to_numpy()
    require(bool((flags.sum(axis=1) == 1).all()), "a study has not exactly one class flag set")
    names = list(STUDY_CLASSES.values())
    labels = [f"{names[int(position)]} {DUMMY_BOX}" for position in flags.argmax(axis=1)]
    return pd.DataFrame({ID: studies[ID].to_numpy(), TARGET: labels})


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split the studies; images follow them; place each study's DICOM files by side."""
    studies = pd.read_csv(raw_file(raw / "train_study_level.csv"), dtype={ID: str})
    columns = list(studies.columns)
    require(columns == [ID, *STUDY_CLASSES], f"train_study_level.csv columns are {columns}")
    require(len(studies) >= 10, f"train_study_level.csv has {len(studies)} rows; expected 6054")
    images = pd.read_csv(raw_file(raw / "train_image_level.csv"), dtype=str, keep_default_na=False)
    columns = list(images.columns)
    require(columns == IMAGE_COLUMNS, f"train_image_level.csv columns are {columns}")
    train, test = train_test_split(studies, test_size=TEST_SIZE, random_state=SEED)
    train, test = train.sort_values(ID), test.sort_values(ID)
    study_of = images["StudyInstanceUID"] + "_study"
    require(bool(study_of.isin(studies[ID]).all()), "an image's study is not in the study file")
    train_images = images[study_of.isin(train[ID])].sort_values(ID)
    test_images = images[study_of.isin(test[ID])].sort_values(ID)
    image_answers = pd.DataFrame(
        {ID: test_images[ID].to_numpy(), TARGET: test_images["label"].to_numpy()}
    )
    answers = pd.concat([_study_answers(test), image_answers], ignore_index=True)
    negative, none = f"negative {DUMMY_BOX}", f"none {DUMMY_BOX}"
    sample = pd.DataFrame(
        {ID: answers[ID], TARGET: [negative] * len(test) + [none] * len(test_images)}
    )
    check_disjoint_ids(train[ID], test[ID])
    check_answers(answers[[ID]], answers, sample, ID)
    folders = raw_folder(raw / "train")
    write_csv(train, public / "train_study_level.csv")
    write_csv(train_images, public / "train_image_level.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    for side, ids in (("train", train[ID]), ("test", test[ID])):
        for study in (value.removesuffix("_study") for value in ids):
            folder = raw_folder(folders / study)
            files = sorted(path for path in folder.rglob("*.dcm") if path.is_file())
            require(bool(files), f"{folder}: no DICOM files; is the download complete?")
            place_files((path, public / side / study / path.relative_to(folder)) for path in files)
