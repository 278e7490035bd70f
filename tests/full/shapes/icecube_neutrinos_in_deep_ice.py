"""Kaggle's download of icecube-neutrinos-in-deep-ice: one zip of parquet files and a CSV.

``icecube-neutrinos-in-deep-ice.zip`` holds ``train_meta.parquet`` (``batch_id, event_id,
first_pulse_index, last_pulse_index, azimuth, zenith``), ``train/batch_<n>.parquet`` (pulses:
``sensor_id, time, charge, auxiliary`` indexed by ``event_id``), ``test_meta.parquet`` and
``test/batch_661.parquet`` for Kaggle's unlabelled test batch, ``sensor_geometry.csv`` and
``sample_submission.parquet``. Event ids increase through the batches with gaps. The synthetic
pulses' sensor positions follow the direction, so the content predicts it.
"""

from __future__ import annotations

import zipfile
from io import BytesIO
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq

COMPETITION = "icecube-neutrinos-in-deep-ice"
BATCHES = 10
EVENTS = 12
SENSORS = 60


def _parquet(frame: pd.DataFrame, index: bool = False) -> bytes:
    buffer = BytesIO()
    frame.to_parquet(buffer, index=index, engine="pyarrow")
    return buffer.getvalue()


def _batch(
    rng: np.random.Generator, batch: int, first_event: int
) -> tuple[pd.DataFrame, pd.DataFrame]:
    events = first_event + np.cumsum(rng.integers(1, 40, size=EVENTS))
    azimuth, zenith = rng.uniform(0, 2 * np.pi, EVENTS), np.arccos(rng.uniform(-1, 1, EVENTS))
    pulses, first, last = [], [], []
    for event, az, zen in zip(events, azimuth, zenith, strict=True):
        count = int(rng.integers(5, 12))
        first.append(sum(len(p) for p in pulses))
        sensors = (int(az * 9) + int(zen * 6) + np.arange(count)) % SENSORS
        pulses.append(
            pd.DataFrame(
                {
                    "event_id": event,
                    "sensor_id": sensors.astype(np.int16),
                    "time": rng.integers(5000, 20000, count).astype(np.int64),
                    "charge": np.round(rng.exponential(1.0, count), 3),
                    "auxiliary": rng.random(count) < 0.3,
                }
            )
        )
        last.append(first[-1] + count - 1)
    meta = pd.DataFrame(
        {
            "batch_id": batch,
            "event_id": events,
            "first_pulse_index": first,
            "last_pulse_index": last,
            "azimuth": azimuth,
            "zenith": zenith,
        }
    )
    return meta, pd.concat(pulses, ignore_index=True).set_index("event_id")


def make_download(folder: Path, rng: np.random.Generator) -> None:
    metas, files, event = [], {}, 24
    for batch in range(1, BATCHES + 2):
        meta, pulses = _batch(rng, batch, event)
        event = int(meta["event_id"].iloc[-1])
        part = "train" if batch <= BATCHES else "test"
        files[f"{part}/batch_{batch}.parquet"] = _parquet(pulses, index=True)
        metas.append(meta)
    train_meta = pd.concat(metas[:-1], ignore_index=True)
    test_meta = metas[-1].drop(columns=["azimuth", "zenith"])
    sample = pd.DataFrame({"event_id": test_meta["event_id"], "azimuth": 1.0, "zenith": 1.0})
    geometry = pd.DataFrame(
        {
            "sensor_id": np.arange(SENSORS),
            "x": np.round(rng.uniform(-500, 500, SENSORS), 2),
            "y": np.round(rng.uniform(-500, 500, SENSORS), 2),
            "z": np.round(rng.uniform(-500, 500, SENSORS), 2),
        }
    )
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train_meta.parquet", _parquet(train_meta))
        bundle.writestr("test_meta.parquet", _parquet(test_meta))
        bundle.writestr("sample_submission.parquet", _parquet(sample))
        bundle.writestr("sensor_geometry.csv", geometry.to_csv(index=False))
        for name, data in files.items():
            bundle.writestr(name, data)


def public_train_labels(public: Path) -> pd.DataFrame:
    return pq.read_table(
        public / "train_meta.parquet", columns=["event_id", "azimuth", "zenith"]
    ).to_pandas()


def group_values(public: Path) -> tuple[list[int], list[int]]:
    """The batch ids of the public train and test events."""
    train, test = (
        pq.read_table(public / f"{part}_meta.parquet", columns=["batch_id"]).column(0).to_pylist()
        for part in ("train", "test")
    )
    return train, test
