"""Prepare ``seti-breakthrough-listen`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train_labels.csv`` (60,000
cadences) is split again as MLE-bench does: the rows in file order go through scikit-learn's
``train_test_split(test_size=0.1, random_state=0)``, so the same 6,000 cadences are held out and
scores compare with published MLE-bench results. Each cadence's ``train/<c>/<id>.npy`` is placed
(linked or copied, never decoded) under ``public/train/`` or ``public/test/``, keeping the
first-character folder. Kaggle's own test cadences are not used (no labels).

Kaggle's download also holds ``old_leaky_data/``, the withdrawn first release, whose labelled
files overlap the current ones; MLE-bench copies it into ``public/``. It is left out here (a
known issue of kind ``leak``, removed). The sample submission predicts 0.5.
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

ID, TARGET = "id", "target"
TEST_SIZE = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split ``train_labels.csv`` by row; place each cadence's ``.npy`` by side."""
    labels = pd.read_csv(raw_file(raw / "train_labels.csv"), dtype={ID: str})
    require(
        list(labels.columns) == [ID, TARGET], f"train_labels.csv columns are {list(labels.columns)}"
    )
    require(len(labels) >= 10, f"train_labels.csv has {len(labels)} rows; expected 60,000")
    train, answers = train_test_split(labels, test_size=TEST_SIZE, random_state=SEED)
    sample = pd.DataFrame({ID: answers[ID], TARGET: 0.5})
    check_disjoint_ids(train[ID], answers[ID])
    check_answers(answers[[ID]], answers, sample, ID)
    cadences = raw_folder(raw / "train")
    write_csv(train, public / "train_labels.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    for side, ids in (("train", train[ID]), ("test", answers[ID])):
        place_files(
            (cadences / name[0] / f"{name}.npy", public / side / name[0] / f"{name}.npy")
            for name in ids
        )
