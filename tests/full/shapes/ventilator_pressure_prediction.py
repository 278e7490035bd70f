"""Kaggle's download of ventilator-pressure-prediction: one zip of three plain CSVs.

``ventilator-pressure-prediction.zip`` holds ``train.csv`` (``id, breath_id, R, C, time_step,
u_in, u_out, pressure``), ``test.csv`` (the same without ``pressure``) and
``sample_submission.csv`` (``id,pressure``). Every breath has 80 rows; ``id`` numbers the rows
from 1 in each file and breath ids are increasing but not consecutive. ``u_out`` is 0 for the
first ~30 steps (inspiration). The synthetic pressure follows the valve input and the lung's
``R`` and ``C``, so the content predicts it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "ventilator-pressure-prediction"
STEPS = 80
TRAIN_BREATHS = 30
TEST_BREATHS = 4
GROUP_COLUMN = "breath_id"


def _breaths(rng: np.random.Generator, count: int, first_id: int) -> pd.DataFrame:
    frames = []
    breath_ids = first_id + np.cumsum(rng.integers(1, 4, size=count))
    for breath in breath_ids:
        r, c = rng.choice([5, 20, 50]), rng.choice([10, 20, 50])
        time_step = np.round(np.arange(STEPS) * 0.0335 + rng.uniform(0, 0.002, STEPS), 6)
        inspiring = np.arange(STEPS) < rng.integers(28, 33)
        u_in = np.where(inspiring, rng.uniform(0, 100, STEPS), rng.uniform(0, 5, STEPS))
        build = np.cumsum(np.where(inspiring, u_in, 0.0)) * r / (20.0 * c)
        decay = np.where(inspiring, 1.0, np.exp(-(np.arange(STEPS) - 30).clip(0) / 8))
        pressure = 5.0 + build * decay + rng.normal(0, 0.3, STEPS)
        frames.append(
            pd.DataFrame(
                {
                    "breath_id": breath,
                    "R": r,
                    "C": c,
                    "time_step": time_step,
                    "u_in": np.round(u_in, 6),
                    "u_out": (~inspiring).astype(int),
                    "pressure": np.round(pressure, 6),
                }
            )
        )
    frame = pd.concat(frames, ignore_index=True)
    frame.insert(0, "id", np.arange(1, len(frame) + 1))
    return frame


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train = _breaths(rng, TRAIN_BREATHS, 0)
    test = _breaths(rng, TEST_BREATHS, 0).drop(columns=["pressure"])
    sample = pd.DataFrame({"id": test["id"], "pressure": 0})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", usecols=["id", "pressure"])
