"""Stages 1–2 of credit-risk-e2e: problem understanding and data inspection."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

EXPECTED = {"target": "Status", "positive_class": "bad", "task_type": "binary_classification",
            "primary_metric": "roc_auc"}  # fmt: skip


@pytest.mark.check("P1")
def test_problem_statement(report, evidence) -> None:  # type: ignore[no-untyped-def]
    found = {key: report.get(key) for key in EXPECTED}
    evidence(str(found))
    assert found == EXPECTED


@pytest.mark.check("P2")
def test_predictions_file(work, pristine_data, evidence) -> None:  # type: ignore[no-untyped-def]
    predictions = pd.read_csv(work / "predictions.csv")
    ids = pd.read_csv(pristine_data / "test.csv")["id"]
    evidence(f"{len(predictions)} rows for {len(ids)} test ids")
    assert list(predictions.columns) == ["id", "prob_bad"]
    assert sorted(predictions["id"]) == sorted(ids) and predictions["id"].is_unique
    assert predictions["prob_bad"].between(0, 1).all()


@pytest.mark.check("P3")
def test_class_balance(report, facts, evidence) -> None:  # type: ignore[no-untyped-def]
    value = float(report["class_balance"]["positive_rate"])
    evidence(f"reported {value:.4f}, data {facts['positive_rate']:.4f}")
    assert abs(value - facts["positive_rate"]) <= 0.01


@pytest.mark.check("I1")
def test_missing_counts(report, facts) -> None:  # type: ignore[no-untyped-def]
    missing = {k: int(v) for k, v in report["inspection"]["missing"].items() if int(v)}
    assert missing == facts["missing"]


@pytest.mark.check("I2")
def test_duplicates(report, facts) -> None:  # type: ignore[no-untyped-def]
    assert int(report["inspection"]["duplicates"]) == facts["duplicates"]


@pytest.mark.check("I3")
def test_amount_outliers(report, facts, evidence) -> None:  # type: ignore[no-untyped-def]
    flagged = {int(i) for i in report["inspection"]["amount_outlier_ids"]}
    planted = set(facts["amount_outlier_ids"])
    evidence(
        f"{len(planted & flagged)}/{len(planted)} planted flagged, {len(flagged)} flagged in all"
    )
    assert planted <= flagged and len(flagged) <= 3 * len(planted)


@pytest.mark.check("I4")
def test_pii_named(report) -> None:  # type: ignore[no-untyped-def]
    assert {"email", "phone"} <= set(report["inspection"]["pii_columns"])


@pytest.mark.check("I5")
def test_mixed_dates_parsed(pipeline, evidence) -> None:  # type: ignore[no-untyped-def]
    days = np.datetime64("2019-01-01") + np.arange(0, 1095, 37).astype("timedelta64[D]")
    iso = pd.to_datetime(days).strftime("%Y-%m-%d")
    unix = (
        (days - np.datetime64("1970-01-01")).astype("timedelta64[s]").astype(np.int64).astype(str)
    )
    values = pd.Series([a if n % 2 else b for n, (a, b) in enumerate(zip(iso, unix, strict=True))])
    parsed = pd.to_datetime(pd.Series(pipeline.parse_app_date(values)).reset_index(drop=True))
    expected = pd.Series(pd.to_datetime(days))
    wrong = int(
        (parsed.dt.month != expected.dt.month).sum() + (parsed.dt.year != expected.dt.year).sum()
    )
    evidence(f"{wrong} wrong year/month of {len(values)}")
    assert wrong == 0
