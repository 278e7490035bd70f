"""Prepare ``denoising-dirty-documents`` from Kaggle's files.

Kaggle's clean test pages were never published, so the 144 training pages (noisy in ``train/``,
clean in ``train_cleaned/``) are split again: 20 % of the pages, in file-name order, become the
test set, drawn with scikit-learn's ``train_test_split`` at ``random_state=0``, the split
MLE-bench uses, so scores here compare with published MLE-bench results. Page numbers say
nothing about the clean pixels, so the file names stay. Each page is placed (a hard link where
the file system allows, else a copy); the answers, one row per pixel of each clean test page,
are written one page at a time, so memory holds one page whatever the number of pages.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

import numpy as np
import pandas as pd
from PIL import Image
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_disjoint_ids, raw_folder, require
from pytest_mlebench.placing import place_file

TEST_FRACTION = 0.2
SEED = 0
SAMPLE_VALUE = 1
HEADER = "id,value\n"
IMAGE_SUFFIX = ".png"


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's training pages into train and test; write one answer row per pixel."""
    pages = _page_names(raw / "train")
    missing = sorted(set(pages) - set(_page_names(raw / "train_cleaned")))
    require(not missing, f"train_cleaned/ lacks the clean pages {missing[:5]}")
    train, test = train_test_split(pages, test_size=TEST_FRACTION, random_state=SEED)
    check_disjoint_ids(train, test)
    for name in train:
        place_file(raw / "train" / name, public / "train" / name)
        place_file(raw / "train_cleaned" / name, public / "train_cleaned" / name)
    for name in test:
        place_file(raw / "train" / name, public / "test" / name)
    _write_pixel_rows(raw / "train_cleaned", sorted(test), public, private)


def _page_names(folder: Path) -> list[str]:
    """The PNG file names of ``folder`` in string order (the order the split is drawn in)."""
    raw_folder(folder)
    with os.scandir(folder) as entries:
        names = sorted(entry.name for entry in entries if entry.name.endswith(IMAGE_SUFFIX))
    require(len(names) > 1, f"{folder} holds fewer than two {IMAGE_SUFFIX} pages")
    return names


def pixel_rows(path: Path) -> pd.DataFrame:
    """One row per pixel of a page: id ``<page>_<row>_<column>`` (from 1) and intensity 0-1."""
    with Image.open(path) as image:
        intensity = np.asarray(image.convert("L"), dtype=np.float64) / 255.0
    height, width = intensity.shape
    ids = [f"{path.stem}_{r}_{c}" for r in range(1, height + 1) for c in range(1, width + 1)]
    return pd.DataFrame({"id": ids, "value": intensity.ravel()})


def _write_pixel_rows(clean: Path, pages: Iterable[str], public: Path, private: Path) -> None:
    """Answers and the all-white sample submission, appended page by page."""
    private.mkdir(parents=True, exist_ok=True)
    with (
        open(private / "answers.csv", "w", encoding="utf-8", newline="") as answers,
        open(public / "sample_submission.csv", "w", encoding="utf-8", newline="") as sample,
    ):
        answers.write(HEADER)
        sample.write(HEADER)
        for name in pages:
            frame = pixel_rows(clean / name)
            _append(frame, answers)
            _append(frame.assign(value=SAMPLE_VALUE), sample)


def _append(frame: pd.DataFrame, handle: TextIO) -> None:
    frame.to_csv(handle, header=False, index=False, lineterminator="\n")
