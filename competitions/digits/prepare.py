"""Prepare ``digits``: scikit-learn's bundled 8x8 handwritten digits, split 70/30 by class."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench import embedded

SOURCE = embedded.BundledFile(
    distribution="scikit-learn",
    relative_path="sklearn/datasets/data/digits.csv.gz",
    sha256="09f66e6debdee2cd2b5ae59e0d6abbb73fc2b0e0185d2e1957e9ebb51e23aa22",
    version="1.9.1",
    install="pip install scikit-learn==1.9.1",
)
SEED = 20_240_101
TEST_FRACTION = 0.3
PIXELS = [f"pixel{i}" for i in range(64)]


def load_digits() -> pd.DataFrame:
    """The 1,797 digits: 64 pixel intensities (0-16) and the ``label`` 0-9."""
    raw = pd.read_csv(SOURCE.locate(), header=None)
    embedded.require(raw.shape == (1797, 65), f"expected 1797 x 65 values, got {raw.shape}")
    raw.columns = [*PIXELS, "label"]
    return raw.astype("int64")


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Write train/test/sample_submission into ``public`` and answers into ``private``."""
    train, test = embedded.stratified_holdout(
        load_digits(), "label", seed=SEED, test_fraction=TEST_FRACTION
    )
    embedded.write_holdout(
        public, private, train, test, answer_columns=["label"], sample=test[["id"]].assign(label=0)
    )
