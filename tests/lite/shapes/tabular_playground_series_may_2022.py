"""Kaggle's download of tabular-playground-series-may-2022: one zip of three plain CSVs.

``tabular-playground-series-may-2022.zip`` holds ``train.csv`` (``id``, ``f_00``–``f_30``,
``target``), ``test.csv`` (``id`` and the features) and ``sample_submission.csv``
(``id,target``). Ids number the rows from 0, train first. ``f_27`` is a ten-letter string. The
synthetic target follows the sign of ``f_00 + f_28``, so the content predicts it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "tabular-playground-series-may-2022"
FLOATS = [f"f_{i:02d}" for i in (*range(0, 7), *range(19, 27), 28)]
INTEGERS = [f"f_{i:02d}" for i in (*range(7, 19), 29, 30)]
TRAIN_ROWS = 200
TEST_ROWS = 30


def _features(rng: np.random.Generator, count: int) -> pd.DataFrame:
    columns: dict[str, object] = {}
    for i in range(31):
        name = f"f_{i:02d}"
        if name in FLOATS:
            columns[name] = np.round(rng.normal(size=count), 6)
        elif name in INTEGERS:
            columns[name] = rng.integers(0, 12, size=count)
        else:
            letters = rng.choice(list("ABCDEFGHIJKLMNOPQRST"), size=(count, 10))
            columns[name] = ["".join(row) for row in letters]
    return pd.DataFrame(columns)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    frame = _features(rng, TRAIN_ROWS + TEST_ROWS)
    frame.insert(0, "id", np.arange(len(frame)))
    target = ((frame["f_00"] + frame["f_28"]) > 0).astype(int)
    train = frame.iloc[:TRAIN_ROWS].assign(target=target[:TRAIN_ROWS])
    test = frame.iloc[TRAIN_ROWS:]
    sample = pd.DataFrame({"id": test["id"], "target": 0.5})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", usecols=["id", "target"])
