"""Prepare ``rsna-2022-cervical-spine-fracture-detection`` from Kaggle's files.

Kaggle's test labels were never published, so the 2,019 labelled studies of ``train.csv`` are
split again. MLE-bench's prepare draws a tenth of them with ``random.Random(0)``, keeping the
shares of the studies with bounding boxes, with segmentations and with both: first
``round(0.1 · overlap)`` of the studies with both, then segmentation-only and box-only studies
up to a tenth of each subset, then others up to a tenth of all studies (each draw a
``Random.sample`` from the sorted or file-ordered candidates). Its comment says the tenth is
what is held out, but it makes that tenth the train set (train 10 %, test 90 %). Here the same
draw is the **test** set, as intended (a known issue of kind ``broken-data``; see the README):
the same studies, the other 90 % are train.

Public files: ``train.csv``, ``train_bounding_boxes.csv`` and ``segmentations/*.nii`` for the
train studies only (boxes and segmentations show where the fractures are); ``test.csv``
(``row_id, StudyInstanceUID, prediction_type``: eight rows per test study, row ids
``<StudyInstanceUID>_<target>``); ``train_images/`` and ``test_images/`` (every DICOM slice
placed unchanged, never decoded); ``sample_submission.csv`` (0.5 everywhere, as MLE-bench's).
The answers add ``study_target`` (the row id's form), which the metric reads for the study and
the target's weight.
"""

from __future__ import annotations

import random
from pathlib import Path

import pandas as pd

from pytest_mlebench.embedded import (
    check_answers,
    raw_file,
    raw_folder,
    require,
    write_csv,
)
from pytest_mlebench.placing import place_files

STUDY, ID, TYPE, TARGET, KEY = (
    "StudyInstanceUID", "row_id", "prediction_type", "fractured", "study_target",
)  # fmt: skip
TARGETS = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"]
BOX_COLUMNS = [STUDY, "x", "y", "width", "height", "slice_number"]
TEST_RATIO = 0.1
SEED = 0


def held_out_studies(studies: list[str], boxed: list[str], segmented: list[str]) -> list[str]:
    """MLE-bench's seeded draw of a tenth of the studies, keeping the box/segmentation shares."""
    draw = random.Random(SEED)
    overlap = [study for study in boxed if study in set(segmented)]
    picked = draw.sample(overlap, round(len(overlap) * TEST_RATIO))
    segmented_only = [study for study in segmented if study not in set(overlap)]
    picked += draw.sample(segmented_only, round(len(segmented) * TEST_RATIO) - len(picked))
    in_overlap = round(len(overlap) * TEST_RATIO)
    boxed_only = [study for study in boxed if study not in set(overlap)]
    picked += draw.sample(boxed_only, round(len(boxed) * TEST_RATIO) - in_overlap)
    chosen = set(picked)
    rest = [study for study in studies if study not in chosen]
    picked += draw.sample(rest, round(len(studies) * TEST_RATIO) - len(picked))
    return picked


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Hold out MLE-bench's drawn tenth as test; melt its labels into Kaggle's row ids."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype={STUDY: str})
    require(
        list(source.columns) == [STUDY, *TARGETS], f"train.csv columns are {list(source.columns)}"
    )
    require(len(source) >= 10, f"train.csv has {len(source)} studies; expected 2,019")
    boxes = pd.read_csv(raw_file(raw / "train_bounding_boxes.csv"), dtype={STUDY: str})
    require(
        list(boxes.columns) == BOX_COLUMNS,
        f"train_bounding_boxes.csv columns are {list(boxes.columns)}",
    )
    segmentations = raw_folder(raw / "segmentations")
    segmented = sorted(path.stem for path in segmentations.glob("*.nii"))
    boxed = sorted(boxes[STUDY].unique())
    test_studies = set(held_out_studies(list(source[STUDY]), boxed, segmented))
    train = source[~source[STUDY].isin(test_studies)]
    held_out = source[source[STUDY].isin(test_studies)]
    melted = held_out.melt(id_vars=STUDY, var_name=TYPE, value_name=TARGET)
    melted[ID] = melted[STUDY] + "_" + melted[TYPE]
    answers = melted[[ID, STUDY, TYPE, TARGET]].assign(**{KEY: melted[ID]})
    test = answers[[ID, STUDY, TYPE]]
    sample = answers[[ID]].assign(**{TARGET: 0.5})
    require(len(answers) == 8 * len(test_studies), "each test study needs its eight targets")
    check_answers(test, answers, sample, ID)
    write_csv(train, public / "train.csv")
    write_csv(boxes[~boxes[STUDY].isin(test_studies)], public / "train_bounding_boxes.csv")
    write_csv(test, public / "test.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    train_segmented = [study for study in segmented if study not in test_studies]
    place_files(
        (segmentations / f"{study}.nii", public / "segmentations" / f"{study}.nii")
        for study in train_segmented
    )
    images = raw_folder(raw / "train_images")
    for side, studies in (("train_images", train[STUDY]), ("test_images", held_out[STUDY])):
        for study in studies:
            folder = raw_folder(images / study)
            place_files(
                (path, public / side / study / path.name) for path in sorted(folder.glob("*.dcm"))
            )
