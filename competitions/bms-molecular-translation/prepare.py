"""Prepare ``bms-molecular-translation`` from Kaggle's files.

Kaggle's test InChIs were never published, so the labelled ``train_labels.csv`` (2,424,186
images) is split again as MLE-bench does: scikit-learn's ``train_test_split(test_size=0.2,
random_state=0)`` over its rows in file order, so the same 484,838 images are held out and scores
compare with published MLE-bench runs. Both sides keep the split's (shuffled) order.

Images are placed, never decoded: ``train/<a>/<b>/<c>/<id>.png`` goes to ``public/train/`` or
``public/test/`` under the same three-level path (``a``, ``b``, ``c``: the id's first three
characters). ``extra_approved_InChIs.csv`` is kept as it is. The sample submission gives every
test image the InChI of water, as MLE-bench's does.
"""

from __future__ import annotations

from pathlib import Path

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
from pytest_mlebench.placing import place_file, place_files

ID, TARGET = "image_id", "InChI"
SAMPLE_INCHI = "InChI=1S/H2O/h1H2"
TEST_SIZE = 0.2
SEED = 0


def image_path(image_id: str) -> Path:
    """Kaggle's three-level path of an image: ``a/b/c/<id>.png``."""
    return Path(image_id[0], image_id[1], image_id[2], f"{image_id}.png")


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split ``train_labels.csv`` 80/20 as MLE-bench; place each image on its side."""
    labels = pd.read_csv(raw_file(raw / "train_labels.csv"), dtype=str, keep_default_na=False)
    require(list(labels.columns) == [ID, TARGET], f"train_labels.csv columns: {list(labels)}")
    require(len(labels) >= 10, f"train_labels.csv has {len(labels)} rows; expected 2,424,186")
    train_rows, test_rows = train_test_split(
        np.arange(len(labels)), test_size=TEST_SIZE, random_state=SEED
    )
    train, answers = labels.iloc[train_rows], labels.iloc[test_rows]
    sample = pd.DataFrame({ID: answers[ID], TARGET: SAMPLE_INCHI})
    check_disjoint_ids(train[ID], answers[ID])
    check_answers(answers[[ID]], answers, sample, ID)
    write_csv(train, public / "train_labels.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    place_file(raw_file(raw / "extra_approved_InChIs.csv"), public / "extra_approved_InChIs.csv")
    images = raw_folder(raw / "train")
    for side, ids in (("train", train[ID]), ("test", answers[ID])):
        place_files((images / image_path(i), public / side / image_path(i)) for i in ids)
