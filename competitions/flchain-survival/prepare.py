"""Prepare ``flchain-survival``: the serum free light chain cohort (R ``survival::flchain``).

``chapter`` (the cause of death) is dropped: it is known only for those who died, so it would
give the event away. The split is 70/30, stratified by death.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench import embedded

SHA256 = "301ca7c67b20e77ba43900fedabd1fbc9f565cca1ad4c94f385645b537e9e66b"
SEED = 20_240_205
TEST_FRACTION = 0.3
RENAMED = {"sample.yr": "sample_yr", "flc.grp": "flc_grp"}
FEATURES = ["age", "sex", "sample_yr", "kappa", "lambda", "flc_grp", "creatinine", "mgus"]


def load_cohort() -> pd.DataFrame:
    """The 7,874 people with their baseline features, follow-up ``futime`` and ``death``."""
    frame = embedded.read_rdataset("survival", "flchain", SHA256).rename(columns=RENAMED)
    embedded.require(frame.shape == (7874, 11), f"expected 7874 x 11, got {frame.shape}")
    embedded.require(set(frame["death"]) == {0, 1}, "death must be 0/1")
    cohort = frame[[*FEATURES, "futime", "death"]].copy()
    cohort["sex"] = cohort["sex"].astype(str)
    return cohort


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Write train/test/sample_submission into ``public`` and answers into ``private``."""
    train, test = embedded.stratified_holdout(
        load_cohort(), "death", seed=SEED, test_fraction=TEST_FRACTION
    )
    embedded.write_holdout(
        public,
        private,
        train,
        test,
        answer_columns=["futime", "death"],
        sample=test[["id"]].assign(risk=0.0),
    )
