"""Prepare ``ames-house-prices``: De Cock's Ames housing data (modeldata ``ames``), split 70/30.

The split is stratified on the sale price's quintile so both parts cover the whole price range.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench import embedded

SHA256 = "43323cb5d3bc49de3fdb66a9c28e27d2d6102a308230070ea480ded132fe619a"
SEED = 20_240_202
TEST_FRACTION = 0.3
TARGET = "Sale_Price"


def load_houses() -> pd.DataFrame:
    """The 2,930 house sales with the sale price as the last column."""
    frame = embedded.read_rdataset("modeldata", "ames", SHA256)
    embedded.require(frame.shape == (2930, 74), f"expected 2930 x 74, got {frame.shape}")
    price = frame.pop(TARGET).astype("int64")
    embedded.require(bool((price > 0).all()), "sale prices must be positive")
    for column in frame.columns:
        if not pd.api.types.is_numeric_dtype(frame[column]):
            frame[column] = frame[column].astype(str)
    frame[TARGET] = price
    return frame


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Write train/test/sample_submission into ``public`` and answers into ``private``."""
    houses = load_houses()
    rng = embedded.rng_for(SEED)
    houses.insert(0, "id", embedded.fresh_ids(len(houses), rng))
    quintile = pd.qcut(houses[TARGET], 5, labels=False)
    train_rows, test_rows = embedded.stratified_split(quintile, TEST_FRACTION, rng)
    train = embedded.shuffled_rows(houses, train_rows, rng)
    test = embedded.shuffled_rows(houses, test_rows, rng)
    answers = test[["id", TARGET]]
    typical = float(train[TARGET].median())
    embedded.write_prepared(
        public,
        private,
        train=train,
        test=test.drop(columns=TARGET),
        answers=answers,
        sample=answers.assign(**{TARGET: typical}),
    )
