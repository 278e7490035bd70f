"""Kaggle's download of new-york-city-taxi-fare-prediction: one zip of plain files.

``new-york-city-taxi-fare-prediction.zip`` holds ``train.csv`` (``key,fare_amount,
pickup_datetime,pickup_longitude,pickup_latitude,dropoff_longitude,dropoff_latitude,
passenger_count``), ``test.csv`` (the same without ``fare_amount``), ``sample_submission.csv``
(``key,fare_amount``) and ``GCP-Coupons-Instructions.rtf``. A key is the pickup time plus a
seven-digit fraction (``2009-06-15 17:26:21.0000001``); the ``pickup_datetime`` ends in ``UTC``.
One ride has no drop-off coordinates, as some of Kaggle's do. The synthetic fare follows the
distance, so the content predicts it; keys and order do not.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "new-york-city-taxi-fare-prediction"
TRAIN_ROWS = 300
TEST_ROWS = 20
RTF = r"{\rtf1\ansi Redeem your cloud credits as described on the data page.}"


def _rides(rng: np.random.Generator, count: int) -> pd.DataFrame:
    seconds = rng.integers(1_230_768_000, 1_435_708_800, size=count)  # 2009 to mid-2015
    times = pd.to_datetime(seconds, unit="s")
    keys = [
        f"{time:%Y-%m-%d %H:%M:%S}.{suffix:07d}"
        for time, suffix in zip(times, rng.integers(1, 400, size=count), strict=True)
    ]
    pickup = np.c_[rng.uniform(-74.02, -73.93, count), rng.uniform(40.70, 40.80, count)]
    dropoff = pickup + rng.normal(0, 0.03, size=(count, 2))
    return pd.DataFrame(
        {
            "key": keys,
            "pickup_datetime": [f"{time:%Y-%m-%d %H:%M:%S} UTC" for time in times],
            "pickup_longitude": np.round(pickup[:, 0], 6),
            "pickup_latitude": np.round(pickup[:, 1], 6),
            "dropoff_longitude": np.round(dropoff[:, 0], 6),
            "dropoff_latitude": np.round(dropoff[:, 1], 6),
            "passenger_count": rng.integers(1, 7, size=count),
        }
    )


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train = _rides(rng, TRAIN_ROWS)
    distance = np.hypot(
        train["dropoff_longitude"] - train["pickup_longitude"],
        train["dropoff_latitude"] - train["pickup_latitude"],
    )
    train.insert(1, "fare_amount", np.round(2.5 + 250 * distance, 2))
    train.loc[7, ["dropoff_longitude", "dropoff_latitude"]] = np.nan
    test = _rides(rng, TEST_ROWS)
    sample = pd.DataFrame({"key": test["key"], "fare_amount": 11.35})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", train.to_csv(index=False))
        bundle.writestr("test.csv", test.to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        bundle.writestr("GCP-Coupons-Instructions.rtf", RTF)


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train.csv", usecols=["key", "fare_amount"], dtype={"key": str})
