"""Prepare ``google-research-identify-contrails-reduce-global-warming`` from Kaggle's files.

Kaggle's test labels were never published, so ``train/`` is split again exactly as MLE-bench
splits it, so the same records are held out: scikit-learn's ``train_test_split`` over the records
of ``train_metadata.json`` in file order, ``test_size`` the number of validation records,
``random_state=0``. The validation set is published as it is.

Bands and masks are ``.npy`` files, placed, never decoded; only each test record's
``human_pixel_masks.npy`` is read (with numpy) to write its answer, run-length encoded
column-major, ``-`` when empty. The sample submission is MLE-bench's: ``1 3 10 5`` or ``-`` per
record, drawn with ``random.Random(0)``.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
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
from pytest_mlebench.graders.rle import encode
from pytest_mlebench.placing import place_files

ID, TARGET = "record_id", "encoded_pixels"
BANDS = tuple(f"band_{band:02}.npy" for band in range(8, 17))
LABELS = ("human_individual_masks.npy", "human_pixel_masks.npy")
SAMPLE_MASKS = ("1 3 10 5", "-")


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Hold out as many train records as validation has; answers from the pixel masks."""
    train_meta = _metadata(raw / "train_metadata.json")
    validation_meta = _metadata(raw / "validation_metadata.json")
    train, test = train_test_split(train_meta, test_size=len(validation_meta), random_state=0)
    records = raw_folder(raw / "train")
    answers = pd.DataFrame(
        {
            ID: [str(entry[ID]) for entry in test],
            TARGET: [_answer(records / str(entry[ID])) for entry in test],
        }
    )
    draw = random.Random(0)
    sample = answers.assign(**{TARGET: [draw.choice(SAMPLE_MASKS) for _ in range(len(test))]})
    check_disjoint_ids([str(entry[ID]) for entry in train], answers[ID])
    check_answers(answers[[ID]], answers, sample, ID)
    place_files(
        (records / str(entry[ID]) / name, public / "train" / str(entry[ID]) / name)
        for entry in train
        for name in (*BANDS, *LABELS)
    )
    place_files(
        (records / record / name, public / "test" / record / name)
        for record in answers[ID]
        for name in BANDS
    )
    validation = raw_folder(raw / "validation")
    place_files(
        (path, public / "validation" / path.relative_to(validation))
        for path in sorted(validation.rglob("*"))
        if path.is_file()
    )
    (public / "train_metadata.json").write_text(json.dumps(train), encoding="utf-8")
    (public / "validation_metadata.json").write_text(json.dumps(validation_meta), encoding="utf-8")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _metadata(path: Path) -> list[dict[str, Any]]:
    entries = json.loads(raw_file(path).read_text(encoding="utf-8"))
    require(
        isinstance(entries, list) and all(isinstance(e, dict) and ID in e for e in entries),
        f"{path.name} is not a list of records with a {ID!r}",
    )
    return entries


def _answer(record: Path) -> str:
    mask = np.load(raw_file(record / "human_pixel_masks.npy"))
    require(mask.ndim == 3 and mask.shape[2] == 1, f"{record.name}: mask shape is {mask.shape}")
    return encode(mask[:, :, 0] == 1, "column") or "-"
