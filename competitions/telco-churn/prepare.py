"""Prepare ``telco-churn``: IBM's Telco customers (modeldata ``wa_churn``), split 75/25 by churn."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench import embedded

SHA256 = "95d0478a84ee4e289f1f3d2dd3ec72293f4e64cc5a2425a8044f4bcc8eba47d7"
SEED = 20_240_201
TEST_FRACTION = 0.25


def load_customers() -> pd.DataFrame:
    """The 7,043 customers with ``churn`` recoded to 1 (left) / 0 (stayed), placed last."""
    frame = embedded.read_rdataset("modeldata", "wa_churn", SHA256)
    embedded.require(frame.shape == (7043, 20), f"expected 7043 x 20, got {frame.shape}")
    churn = frame.pop("churn").astype(str)
    embedded.require(set(churn) == {"Yes", "No"}, "unexpected churn values")
    for column in frame.columns:
        if not pd.api.types.is_numeric_dtype(frame[column]):
            frame[column] = frame[column].astype(str)
    frame["churn"] = (churn == "Yes").astype("int64")
    return frame


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Write train/test/sample_submission into ``public`` and answers into ``private``."""
    train, test = embedded.stratified_holdout(
        load_customers(), "churn", seed=SEED, test_fraction=TEST_FRACTION
    )
    embedded.write_holdout(
        public,
        private,
        train,
        test,
        answer_columns=["churn"],
        sample=test[["id"]].assign(churn=0.5),
    )
