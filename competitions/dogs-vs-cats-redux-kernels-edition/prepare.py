"""Prepare ``dogs-vs-cats-redux-kernels-edition`` from Kaggle's files.

Kaggle's test labels were never published, so the 25,000 labelled training photographs (named
``cat.<n>.jpg`` / ``dog.<n>.jpg``) are split again: 10 % of them, in file-name order, become the
test set, drawn with scikit-learn's ``train_test_split`` at ``random_state=0``, the split
MLE-bench uses, so scores here compare with published MLE-bench results. Test photographs are
renamed ``1.jpg``, ``2.jpg``, ... in the split's (random) order, so neither the animal nor the old
number shows; training photographs keep the animal in their name and are numbered afresh per
animal, so the gaps left by the test photographs do not show either. Every photograph is placed
(a hard link where the file system allows, else a copy), one file at a time.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import (
    check_answers,
    check_disjoint_ids,
    raw_folder,
    require,
    write_csv,
)
from pytest_mlebench.placing import place_file

TEST_FRACTION = 0.1
SEED = 0
SAMPLE_PROBABILITY = 0.5
POSITIVE = "dog"
RAW_NAME = re.compile(r"(cat|dog)\.\d+\.jpg")


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's training photographs into train and (renamed) test."""
    names = _photograph_names(raw / "train")
    train, test = train_test_split(names, test_size=TEST_FRACTION, random_state=SEED)
    check_disjoint_ids(train, test)
    next_number = {"cat": 0, "dog": 0}
    for name in train:
        animal = _animal(name)
        place_file(raw / "train" / name, public / "train" / f"{animal}.{next_number[animal]}.jpg")
        next_number[animal] += 1
    for number, name in enumerate(test, start=1):
        place_file(raw / "train" / name, public / "test" / f"{number}.jpg")
    answers = pd.DataFrame(
        {
            "id": range(1, len(test) + 1),
            "label": [int(_animal(name) == POSITIVE) for name in test],
        }
    )
    sample = answers.assign(label=SAMPLE_PROBABILITY)
    check_answers(answers[["id"]], answers, sample, "id")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _photograph_names(folder: Path) -> list[str]:
    """The JPEG names of ``folder`` in string order (the order the split is drawn in)."""
    raw_folder(folder)
    with os.scandir(folder) as entries:
        names = sorted(entry.name for entry in entries if entry.name.endswith(".jpg"))
    odd = [name for name in names if not RAW_NAME.fullmatch(name)]
    require(not odd, f"{folder}: expected cat.<n>.jpg or dog.<n>.jpg, found {odd[:3]}")
    require(len(names) > 1, f"{folder} holds fewer than two photographs")
    return names


def _animal(name: str) -> str:
    return name.split(".", 1)[0]
