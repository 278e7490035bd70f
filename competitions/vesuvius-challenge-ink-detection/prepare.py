"""Prepare ``vesuvius-challenge-ink-detection`` from Kaggle's files.

Kaggle's test fragments were never labelled publicly, so, exactly as MLE-bench, train fragments
1 and 2 stay train and fragment 3 becomes the one test fragment, published as ``test/a/`` without
its labels (``inklabels.png``, ``inklabels_rle.csv``) and without ``ir.png`` (the infrared photo
the labels were drawn from). Its answer is Kaggle's own ``inklabels_rle.csv`` row (row-major
runs), with the fragment's width and height read from ``ir.png`` with PIL (the header only).

Volumes (65 TIFF slices per fragment) and PNGs are placed, never decoded. The sample submission
is MLE-bench's ``1 1 5 1``.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from PIL import Image

from pytest_mlebench.embedded import check_answers, raw_file, raw_folder, require, write_csv
from pytest_mlebench.placing import place_files

ID, TARGET = "Id", "Predicted"
TEST_FRAGMENT, TEST_ID = "3", "a"
HELD_BACK = frozenset({"inklabels.png", "inklabels_rle.csv", "ir.png"})
SAMPLE_MASK = "1 1 5 1"


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Fragments 1 and 2 to train, fragment 3 (unlabelled) to test."""
    fragments = raw_folder(raw / "train")
    for fragment in ("1", "2"):
        _place_tree(raw_folder(fragments / fragment), public / "train" / fragment, frozenset())
    test = raw_folder(fragments / TEST_FRAGMENT)
    labels = pd.read_csv(raw_file(test / "inklabels_rle.csv"), dtype=str, keep_default_na=False)
    require(
        list(labels.columns) == [ID, TARGET] and len(labels) == 1,
        f"train/3/inklabels_rle.csv should be one {ID},{TARGET} row, not {labels.shape[0]} rows",
    )
    with Image.open(raw_file(test / "ir.png")) as photo:
        width, height = photo.size
    answers = pd.DataFrame(
        {ID: [TEST_ID], TARGET: [labels[TARGET].iloc[0]], "width": [width], "height": [height]}
    )
    sample = answers[[ID]].assign(**{TARGET: SAMPLE_MASK})
    check_answers(answers[[ID]], answers, sample, ID)
    _place_tree(test, public / "test" / TEST_ID, HELD_BACK)
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _place_tree(source: Path, target: Path, leave_out: frozenset[str]) -> None:
    place_files(
        (path, target / path.relative_to(source))
        for path in sorted(source.rglob("*"))
        if path.is_file() and path.name not in leave_out
    )
