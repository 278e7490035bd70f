"""Kaggle's download of tabular-playground-series-dec-2021: one zip of three plain CSVs.

``tabular-playground-series-dec-2021.zip`` holds ``train.csv`` (``Id``, 54 features,
``Cover_Type``), ``test.csv`` (``Id`` and the features) and ``sample_submission.csv``
(``Id,Cover_Type``). ``Id`` numbers the rows from 0, train first, then test. The synthetic cover
type follows the elevation band, so the content predicts it; the ids and order do not.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "tabular-playground-series-dec-2021"
NUMERIC = (
    "Elevation", "Aspect", "Slope", "Horizontal_Distance_To_Hydrology",
    "Vertical_Distance_To_Hydrology", "Horizontal_Distance_To_Roadways", "Hillshade_9am",
    "Hillshade_Noon", "Hillshade_3pm", "Horizontal_Distance_To_Fire_Points",
)  # fmt: skip
ONE_HOT = tuple(f"Wilderness_Area{i}" for i in range(1, 5)) + tuple(
    f"Soil_Type{i}" for i in range(1, 41)
)
TRAIN_ROWS = 210
TEST_ROWS = 30


def _features(rng: np.random.Generator, cover: np.ndarray) -> pd.DataFrame:
    count = len(cover)
    frame = pd.DataFrame(
        {name: rng.integers(0, 360, size=count) for name in NUMERIC}, dtype="int64"
    )
    frame["Elevation"] = 2000 + 200 * cover + rng.integers(0, 150, size=count)
    for name in ONE_HOT:
        frame[name] = rng.integers(0, 2, size=count)
    return frame


def make_download(folder: Path, rng: np.random.Generator) -> None:
    cover = rng.integers(1, 8, size=TRAIN_ROWS + TEST_ROWS)
    frame = _features(rng, cover)
    frame.insert(0, "Id", np.arange(len(frame)))
    train = frame.iloc[:TRAIN_ROWS].assign(Cover_Type=cover[:TRAIN_ROWS])
    test = frame.iloc[TRAIN_ROWS:]
    sample = pd.DataFrame({"Id": test["Id"], "Cover_Type": 2})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", usecols=["Id", "Cover_Type"])
