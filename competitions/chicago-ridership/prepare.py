"""Prepare ``chicago-ridership``: daily boardings at Clark/Lake (modeldata ``Chicago``).

The last 365 days are the test period. The source's 20 station columns are 14-day lags of
station ridership (``Clark_Lake`` is the target itself, 14 days earlier), so inside the test
period they would reveal test answers; they are dropped. Weather and game-day columns are kept.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench import embedded

SHA256 = "500ef42c8b796ed8cdf456fca2c5ebcfa7d885e669b8e9403beaf01e45b1b06a"
SEED = 20_240_211
TEST_DAYS = 365
STATIONS = [
    "Austin",
    "Quincy_Wells",
    "Belmont",
    "Archer_35th",
    "Oak_Park",
    "Western",
    "Clark_Lake",
    "Clinton",
    "Merchandise_Mart",
    "Irving_Park",
    "Washington_Wells",
    "Harlem",
    "Monroe",
    "Polk",
    "Ashland",
    "Kedzie",
    "Addison",
    "Jefferson_Park",
    "Montrose",
    "California",
]


def load_days() -> pd.DataFrame:
    """One row per day: ``date``, weather and game columns, then ``ridership`` (thousands)."""
    frame = embedded.read_rdataset("modeldata", "Chicago", SHA256)
    embedded.require(frame.shape == (5698, 50), f"expected 5698 x 50, got {frame.shape}")
    dates = pd.to_datetime(frame["date"], format="%Y-%m-%d")
    embedded.require(bool((dates.diff().dropna() == pd.Timedelta(days=1)).all()), "gap in dates")
    embedded.require(set(STATIONS) <= set(frame.columns), "station columns missing")
    covariates = frame.drop(columns=[*STATIONS, "date", "ridership"])
    days = pd.concat([dates.dt.strftime("%Y-%m-%d").rename("date"), covariates], axis=1)
    days["ridership"] = frame["ridership"].astype(float)
    embedded.require(bool((days["ridership"] > 0).all()), "ridership must be positive")
    return days


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Write train/test/sample_submission into ``public`` and answers into ``private``."""
    days = load_days()
    rng = embedded.rng_for(SEED)
    days.insert(0, "id", embedded.fresh_ids(len(days), rng))
    train = days.iloc[:-TEST_DAYS].reset_index(drop=True)
    test = days.iloc[-TEST_DAYS:].reset_index(drop=True)
    answers = test[["id", "ridership"]]
    last_year_mean = float(train["ridership"].iloc[-TEST_DAYS:].mean())
    embedded.write_prepared(
        public,
        private,
        train=train,
        test=test.drop(columns="ridership"),
        answers=answers,
        sample=answers.assign(ridership=round(last_year_mean, 3)),
    )
