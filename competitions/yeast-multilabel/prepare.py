"""Prepare ``yeast-multilabel``: MULAN yeast gene functions (bundled with river), split 70/30."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench import embedded

SOURCE = embedded.BundledFile(
    distribution="river",
    relative_path="river/datasets/yeast.csv.gz",
    sha256="2969cb4bab877a27adcbe17871fa0b378a1e54b98816cd6106b542ee450a1c09",
    version="0.26.1",
    install="pip install river==0.26.1",
)
SEED = 20_240_206
TEST_FRACTION = 0.3
FEATURES = [f"Att{i}" for i in range(1, 104)]
LABELS = [f"Class{i}" for i in range(1, 15)]


def load_genes() -> pd.DataFrame:
    """The 2,417 genes: 103 numeric features and 14 binary function labels."""
    frame = pd.read_csv(SOURCE.locate())
    embedded.require(list(frame.columns) == [*FEATURES, *LABELS], "unexpected yeast columns")
    embedded.require(len(frame) == 2417, f"expected 2417 genes, got {len(frame)}")
    labels = frame[LABELS].astype("int64")
    embedded.require(bool(labels.isin([0, 1]).all().all()), "labels must be 0/1")
    return pd.concat([frame[FEATURES], labels], axis=1).copy()


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Write train/test/sample_submission into ``public`` and answers into ``private``."""
    genes = load_genes()
    rng = embedded.rng_for(SEED)
    genes.insert(0, "id", embedded.fresh_ids(len(genes), rng))
    rows = rng.permutation(len(genes))
    cut = round(len(genes) * (1 - TEST_FRACTION))
    train = genes.iloc[rows[:cut]].reset_index(drop=True)
    test = genes.iloc[rows[cut:]].reset_index(drop=True)
    answers = test[["id", *LABELS]]
    embedded.write_prepared(
        public,
        private,
        train=train,
        test=test.drop(columns=LABELS),
        answers=answers,
        sample=answers.assign(**{label: 0.5 for label in LABELS}),
    )
