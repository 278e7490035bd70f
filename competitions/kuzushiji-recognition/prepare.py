"""Prepare ``kuzushiji-recognition`` from Kaggle's files.

Kaggle's test labels were never published, so the pages of ``train.csv`` are split again as
MLE-bench does: its rows in file order go through scikit-learn's
``train_test_split(test_size=0.1, random_state=0)``, so the same pages are held out and scores
compare with published MLE-bench results. Kaggle's ``train_images.zip`` is unpacked by the
download step; each page's JPEG (``<image_id>.jpg``) is placed unchanged — linked or copied,
never decoded — under ``public/train_images/`` or ``public/test_images/`` (MLE-bench zips them
again; a folder holds the same files). ``unicode_translation.csv`` is copied. The answers are the
held-out rows of ``train.csv`` (``label X Y Width Height`` groups; empty for a page without
characters); the sample submission predicts ``U+003F 1 1 U+FF2F 2 2``, as Kaggle's.
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
from pytest_mlebench.placing import place_file, place_files

ID, TARGET = "image_id", "labels"
SAMPLE = "U+003F 1 1 U+FF2F 2 2"
TEST_SIZE = 0.1
SEED = 0


def _image(raw: Path, image: str) -> Path:
    """A page's JPEG: unpacked from ``train_images.zip`` beside it, or in a folder of that name."""
    for candidate in (raw / f"{image}.jpg", raw / "train_images" / f"{image}.jpg"):
        if candidate.is_file():
            return candidate
    return raw_file(raw / f"{image}.jpg")


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split the pages of ``train.csv``; place each page's image by side."""
    pages = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    columns = list(pages.columns)
    require(columns == [ID, TARGET], f"train.csv columns are {columns}")
    require(len(pages) >= 10, f"train.csv has {len(pages)} rows; expected 3881")
    translation = raw_file(raw / "unicode_translation.csv")
    train, answers = train_test_split(pages, test_size=TEST_SIZE, random_state=SEED)
    sample = pd.DataFrame({ID: answers[ID], TARGET: SAMPLE})
    check_disjoint_ids(train[ID], answers[ID])
    check_answers(answers[[ID]], answers, sample, ID)
    write_csv(train, public / "train.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    place_file(translation, public / "unicode_translation.csv")
    for side, ids in (("train_images", train[ID]), ("test_images", answers[ID])):
        place_files((_image(raw, image), public / side / f"{image}.jpg") for image in ids)
