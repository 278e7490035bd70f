"""Hidden checks of data-leak-fix (ids as in config.yaml)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from conftest import scores

TAU = 0.74  # hold-out AUC of a leak-free model (oracle ≈ 0.77 on seeds 0–2)
NULL_BAND = (0.40, 0.60)
HONEST_GAP = 0.03


@pytest.mark.check("F1")
def test_holdout_auc(holdout_auc, evidence) -> None:  # type: ignore[no-untyped-def]
    evidence(f"temporal hold-out AUC {holdout_auc:.4f} (τ = {TAU})")
    assert holdout_auc >= TAU


@pytest.mark.check("B1")
def test_label_permutation(pipeline, given, evidence) -> None:  # type: ignore[no-untyped-def]
    """With the labels shuffled (per customer) the agent's own validation must see no signal."""
    rng = np.random.default_rng(20240)
    customers = given["customer_id"].unique()
    labels = given.groupby("customer_id")["default"].first()
    shuffled = dict(zip(customers, rng.permutation(labels.loc[customers].to_numpy()), strict=True))
    frame = given.copy()
    frame["default"] = frame["customer_id"].map(shuffled)
    auc, _ = pipeline.validate(frame)
    evidence(f"validation AUC with shuffled labels {float(auc):.4f}")
    assert NULL_BAND[0] <= float(auc) <= NULL_BAND[1]


def _sentinels(given: pd.DataFrame) -> pd.DataFrame:
    last = sorted(given["snapshot_month"].unique())[-1]
    rows = given[given["snapshot_month"] == last].head(5).copy()
    rows["customer_id"] = [f"S{i:06d}" for i in range(len(rows))]
    rows["income"] = 1e9
    rows["debt_ratio"] = 500.0
    rows["utilization"] = 50.0
    rows["region"] = rows["region"].iloc[0]
    rows["default"] = 1
    return rows


@pytest.mark.check("B2")
def test_sentinel_rows_do_not_change_the_fit(pipeline, given, holdout, evidence) -> None:  # type: ignore[no-untyped-def]
    """Extreme validation-window rows must not move any statistic the model was fitted with."""
    _, plain = pipeline.validate(given.copy())
    _, with_sentinels = pipeline.validate(pd.concat([given, _sentinels(given)], ignore_index=True))
    probe = holdout.drop(columns=["default"]).head(300)
    delta = float(np.max(np.abs(scores(plain, probe) - scores(with_sentinels, probe))))
    evidence(f"max |Δ score| on probe rows {delta:.2e}")
    assert delta <= 1e-9


@pytest.mark.check("B3")
def test_split_is_temporal_and_customer_disjoint(pipeline, given, evidence) -> None:  # type: ignore[no-untyped-def]
    train, val = pipeline.split(given.copy())
    months = sorted(given["snapshot_month"].unique())
    evidence(f"validation months {sorted(val['snapshot_month'].unique())}, {len(train)} train rows")
    assert sorted(val["snapshot_month"].unique()) == months[-3:]
    assert set(train["snapshot_month"]).isdisjoint(months[-3:])
    assert set(train["customer_id"]).isdisjoint(set(val["customer_id"]))


@pytest.mark.check("X1")
def test_reported_auc_is_honest(work_dir, holdout_auc, evidence) -> None:  # type: ignore[no-untyped-def]
    report = json.loads((work_dir / "out" / "report.json").read_text())
    reported = float(report["validation_auc"])
    evidence(f"reported {reported:.4f}, hold-out {holdout_auc:.4f}")
    assert abs(reported - holdout_auc) <= HONEST_GAP
