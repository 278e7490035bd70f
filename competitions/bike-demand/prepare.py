"""Prepare ``bike-demand``: hourly Capital Bikeshare rentals of 2011 (ISLP ``Bikeshare``).

Kaggle's protocol: days 1-19 of each month are train, days 20 to the month's end are test.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench import embedded

SOURCE = embedded.BundledFile(
    distribution="ISLP",
    relative_path="ISLP/data/Bikeshare.csv",
    sha256="ac6950ae6f11efcc69c29d6bb13e8881c001e27d36434660d59444a1414f712c",
    version="0.6.0",
    install="pip install --no-deps ISLP==0.6.0",
)
SEED = 20_240_203
FIRST_TEST_DAY = 20
WEATHER = {"clear": 1, "cloudy/misty": 2, "light rain/snow": 3, "heavy rain/snow": 4}


def load_hours() -> pd.DataFrame:
    """Hourly rows with a ``datetime`` column, the weather features and the target ``count``."""
    raw = pd.read_csv(SOURCE.locate(), dtype={"hr": "int64", "mnth": str, "weathersit": str})
    embedded.require(raw.shape == (8645, 15), f"expected 8645 x 15, got {raw.shape}")
    embedded.require(set(raw["weathersit"]) <= set(WEATHER), "unexpected weathersit values")
    stamp = pd.Timestamp("2011-01-01") + pd.to_timedelta(raw["day"] - 1, unit="D")
    stamp = stamp + pd.to_timedelta(raw["hr"], unit="h")
    hours = pd.DataFrame({"datetime": stamp.dt.strftime("%Y-%m-%d %H:%M:%S")})
    hours["season"] = raw["season"]
    hours["holiday"] = raw["holiday"]
    hours["workingday"] = raw["workingday"]
    hours["weather"] = raw["weathersit"].map(WEATHER).astype("int64")
    hours["temp"] = raw["temp"]
    hours["atemp"] = raw["atemp"]
    hours["humidity"] = raw["hum"]
    hours["windspeed"] = raw["windspeed"]
    hours["count"] = raw["bikers"].astype("int64")
    embedded.require(bool((stamp.dt.year == 2011).all()), "all hours must fall in 2011")
    return hours


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Write train/test/sample_submission into ``public`` and answers into ``private``."""
    hours = load_hours()
    rng = embedded.rng_for(SEED)
    hours.insert(0, "id", embedded.fresh_ids(len(hours), rng))
    day = pd.to_datetime(hours["datetime"]).dt.day.to_numpy()
    train = hours[day < FIRST_TEST_DAY].reset_index(drop=True)
    test = hours[day >= FIRST_TEST_DAY].reset_index(drop=True)
    answers = test[["id", "count"]]
    embedded.write_prepared(
        public,
        private,
        train=train,
        test=test.drop(columns="count"),
        answers=answers,
        sample=answers.assign(count=float(train["count"].median())),
    )
