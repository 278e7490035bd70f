"""Prepare ``lmsys-chatbot-arena`` from Kaggle's files.

Kaggle's test labels were never published, so the labelled ``train.csv`` (57,477 conversations)
is split again: 10 % of its rows become the test set, drawn with scikit-learn's
``train_test_split`` at ``random_state=0`` over the file's rows in their order — the split
MLE-bench uses, so the same conversations are held out and scores compare with published
MLE-bench results. As in Kaggle's own test file, the test rows keep only ``id``, ``prompt``,
``response_a`` and ``response_b``: the names of the two models are hidden. Kaggle's ids stay.
The sample submission gives each outcome 1/3.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import raw_file, require, write_prepared

ID = "id"
OUTCOMES = ["winner_model_a", "winner_model_b", "winner_tie"]
TEST_COLUMNS = [ID, "prompt", "response_a", "response_b"]
COLUMNS = [ID, "model_a", "model_b", "prompt", "response_a", "response_b", *OUTCOMES]
TEST_FRACTION = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``train.csv``; the answers are the one-hot outcomes of the test rows."""
    source = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(source.columns) == COLUMNS, f"train.csv columns {list(source.columns)}")
    outcomes = source[OUTCOMES].apply(pd.to_numeric, errors="coerce")
    require(
        bool(outcomes.isin([0, 1]).all().all() and (outcomes.sum(axis=1) == 1).all()),
        "train.csv outcome columns must be 0/1 with exactly one 1 per row",
    )
    source[OUTCOMES] = outcomes.astype("int64")
    train, test = train_test_split(source, test_size=TEST_FRACTION, random_state=SEED)
    sample = pd.DataFrame({ID: test[ID].to_numpy(), **dict.fromkeys(OUTCOMES, 1 / 3)})
    write_prepared(
        public,
        private,
        train=train.reset_index(drop=True),
        test=test[TEST_COLUMNS].reset_index(drop=True),
        answers=test[[ID, *OUTCOMES]].reset_index(drop=True),
        sample=sample,
        id_column=ID,
    )
