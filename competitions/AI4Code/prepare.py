"""Prepare ``AI4Code`` from Kaggle's files.

Kaggle's test notebooks were never published with their orders, so 20,000 of the 139,256
labelled training notebooks become the test set, chosen as the original MLE-bench chooses them:
``train_ancestors.csv`` is shuffled with pandas' ``sample(frac=1, random_state=0)``, notebooks
are grouped by ``ancestor_id`` (a notebook and its forks) in the order the groups first appear,
and whole groups go to test while they fit in the 20,000 — so no test notebook has a relative in
train, the same notebooks are held out and scores compare with published MLE-bench results. (A
smaller copy of the data keeps the same share, 20,000 / 139,256.) Notebook files are placed
unchanged (hard links where possible; code cells in order, markdown cells shuffled after them, as
Kaggle gives them); the test notebooks' orders are the answers. The sample submission lists each
notebook's cells in its file's order, as the original's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from pytest_mlebench.embedded import (
    check_answers,
    check_disjoint_ids,
    raw_file,
    raw_folder,
    require,
    write_csv,
)
from pytest_mlebench.placing import place_file

ID = "id"
TARGET = "cell_order"
KAGGLE_NOTEBOOKS = 139_256
TEST_NOTEBOOKS = 20_000
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Hold out whole fork families of notebooks; their cell orders are the answers."""
    notebooks = raw_folder(raw / "train")
    ancestors = pd.read_csv(raw_file(raw / "train_ancestors.csv"), dtype=str)
    orders = pd.read_csv(raw_file(raw / "train_orders.csv"), dtype=str, keep_default_na=False)
    require(
        list(orders.columns) == [ID, TARGET], f"train_orders.csv columns {list(orders.columns)}"
    )
    train_ids, test_ids = split_by_ancestor(ancestors)
    check_disjoint_ids(train_ids, test_ids)
    for part, ids in (("train", train_ids), ("test", test_ids)):
        for notebook in ids:
            place_file(notebooks / f"{notebook}.json", public / part / f"{notebook}.json")
    held_out = set(test_ids)
    answers = orders[orders[ID].isin(held_out)].reset_index(drop=True)
    sample = pd.DataFrame(
        {ID: answers[ID], TARGET: [_file_order(public / "test" / f"{n}.json") for n in answers[ID]]}
    )
    check_answers(pd.DataFrame({ID: test_ids}), answers, sample, ID)
    write_csv(orders[~orders[ID].isin(held_out)], public / "train_orders.csv")
    write_csv(ancestors[~ancestors[ID].isin(held_out)], public / "train_ancestors.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def split_by_ancestor(ancestors: pd.DataFrame) -> tuple[list[str], list[str]]:
    """Train and test notebook ids: whole ancestor groups fill the test set while they fit."""
    shuffled = ancestors.sample(frac=1, random_state=SEED).reset_index(drop=True)
    size = round(len(shuffled) * TEST_NOTEBOOKS / KAGGLE_NOTEBOOKS)
    groups: dict[str, list[str]] = {}
    for notebook, ancestor in zip(shuffled[ID], shuffled["ancestor_id"], strict=True):
        groups.setdefault(ancestor, []).append(notebook)
    train: list[str] = []
    test: list[str] = []
    for members in groups.values():
        (test if len(test) + len(members) <= size else train).extend(members)
    require(len(test) == size, f"ancestor groups fill {len(test)} of {size} test notebooks")
    return train, test


def _file_order(path: Path) -> str:
    return " ".join(json.loads(path.read_text("utf-8"))["cell_type"])
