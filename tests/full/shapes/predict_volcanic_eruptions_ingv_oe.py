"""Kaggle's download of predict-volcanic-eruptions-ingv-oe: one zip of two CSVs and two folders.

``predict-volcanic-eruptions-ingv-oe.zip`` holds ``train.csv`` (``segment_id,
time_to_eruption``), ``sample_submission.csv`` (the same columns for the test segments) and
``train/<segment_id>.csv`` / ``test/<segment_id>.csv``: ``sensor_1`` … ``sensor_10``, whole
numbers, some sensors entirely empty. Segment ids are random nine- or ten-digit numbers; times
are whole numbers in the millions. The synthetic signal's frequency follows the time to eruption,
so the content predicts the target (and file sizes do not).
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "predict-volcanic-eruptions-ingv-oe"
SENSORS = [f"sensor_{i}" for i in range(1, 11)]
READINGS = 40
TRAIN_SEGMENTS = 40
TEST_SEGMENTS = 5


def _segment(rng: np.random.Generator, time_to_eruption: int) -> str:
    # The frequency (not the amplitude, which would show in the file size) tells the time.
    frequency = 0.05 + time_to_eruption / 1e8
    phase = rng.uniform(0, 2 * np.pi, len(SENSORS))
    wave = np.sin(2 * np.pi * frequency * np.arange(READINGS)[:, None] + phase)
    values = np.round(1000 * wave + rng.normal(0, 50, wave.shape)).astype(int)
    frame = pd.DataFrame(values, columns=SENSORS).astype(object)
    for column in rng.choice(SENSORS, size=int(rng.integers(0, 3)), replace=False):
        frame[column] = ""
    return frame.to_csv(index=False)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    ids = np.unique(rng.integers(10_000_000, 2_147_483_647, size=TRAIN_SEGMENTS + TEST_SEGMENTS))
    ids = rng.permutation(ids)
    times = rng.integers(6_000, 49_000_000, size=len(ids))
    train = pd.DataFrame(
        {"segment_id": ids[:TRAIN_SEGMENTS], "time_to_eruption": times[:TRAIN_SEGMENTS]}
    )
    sample = pd.DataFrame({"segment_id": ids[TRAIN_SEGMENTS:], "time_to_eruption": 0})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for part, segments, seconds in (
            ("train", ids[:TRAIN_SEGMENTS], times[:TRAIN_SEGMENTS]),
            ("test", ids[TRAIN_SEGMENTS:], times[TRAIN_SEGMENTS:]),
        ):
            for segment, time in zip(segments, seconds, strict=True):
                bundle.writestr(f"{part}/{segment}.csv", _segment(rng, int(time)))


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv")


def train_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "train").glob("*.csv")}


def test_files(public: Path) -> dict[str, Path]:
    return {path.stem: path for path in (public / "test").glob("*.csv")}
