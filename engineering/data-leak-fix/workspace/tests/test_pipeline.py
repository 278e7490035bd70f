"""Visible test: the model is fitted on raw rows and scores raw rows it has not seen."""

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pipeline  # noqa: E402


def test_fit_scores_raw_rows():
    df = pipeline.load(ROOT / "data" / "customers.csv")
    train, val = pipeline.split(df)
    model = pipeline.fit(train)
    scores = model.predict_proba(val.drop(columns=[pipeline.TARGET]))[:, 1]
    assert len(scores) == len(val) and ((scores >= 0) & (scores <= 1)).all()
