"""Prepare ``titanic``: the 1,309 Titanic passengers of R's vcdExtra, split 70/30 by outcome."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench import embedded

SHA256 = "8f2eacd00982f70115dd250cb38404c68b8f9ffaed23c9940ef93aadb20416b4"
SEED = 20_240_102
TEST_FRACTION = 0.3
FEATURES = ["pclass", "sex", "age", "sibsp", "parch"]


def load_passengers() -> pd.DataFrame:
    """Passengers with their features and ``survived`` as 0/1."""
    frame = embedded.read_rdataset("vcdExtra", "Titanicp", SHA256)
    embedded.require(len(frame) == 1309, f"expected 1309 passengers, got {len(frame)}")
    outcome = frame["survived"].astype(str)
    embedded.require(set(outcome) == {"died", "survived"}, "unexpected survived values")
    passengers = frame[FEATURES].copy()
    passengers["pclass"] = passengers["pclass"].astype(str)
    passengers["sex"] = passengers["sex"].astype(str)
    passengers["survived"] = (outcome == "survived").astype("int64")
    return passengers


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Write train/test/sample_submission into ``public`` and answers into ``private``."""
    train, test = embedded.stratified_holdout(
        load_passengers(), "survived", seed=SEED, test_fraction=TEST_FRACTION
    )
    embedded.write_holdout(
        public,
        private,
        train,
        test,
        answer_columns=["survived"],
        sample=test[["id"]].assign(survived=0.5),
    )
