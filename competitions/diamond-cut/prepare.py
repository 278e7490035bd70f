"""Prepare ``diamond-cut``: ggplot2's 53,940 diamonds; predict the cut grade, split 80/20 by cut."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench import embedded

SHA256 = "bc8cd9273b2c7db0c855d7bda428a355d6a0834cde5b8fb4068e8cac6d4254f2"
SEED = 20_240_204
TEST_FRACTION = 0.2
CUT_GRADES = {"Fair": 1, "Good": 2, "Very Good": 3, "Premium": 4, "Ideal": 5}
FEATURES = ["carat", "color", "clarity", "depth", "table", "price", "x", "y", "z"]


def load_diamonds() -> pd.DataFrame:
    """The diamonds with ``cut`` recoded as the grade 1 (Fair) to 5 (Ideal), placed last."""
    frame = embedded.read_rdataset("ggplot2", "diamonds", SHA256)
    embedded.require(frame.shape == (53940, 10), f"expected 53940 x 10, got {frame.shape}")
    cut = frame["cut"].astype(str)
    embedded.require(set(cut) == set(CUT_GRADES), f"unexpected cut values {sorted(set(cut))}")
    diamonds = frame[FEATURES].copy()
    diamonds["color"] = diamonds["color"].astype(str)
    diamonds["clarity"] = diamonds["clarity"].astype(str)
    diamonds["cut"] = cut.map(CUT_GRADES).astype("int64")
    return diamonds


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Write train/test/sample_submission into ``public`` and answers into ``private``."""
    train, test = embedded.stratified_holdout(
        load_diamonds(), "cut", seed=SEED, test_fraction=TEST_FRACTION
    )
    embedded.write_holdout(
        public,
        private,
        train,
        test,
        answer_columns=["cut"],
        sample=test[["id"]].assign(cut=int(train["cut"].mode().iloc[0])),
    )
