"""Stages 3–4 of credit-risk-e2e: preprocessing and model selection/training."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import feature_names, scores, truth
from mlebench_agent_code import agent_module, type_name
from mlebench_agent_run import agent_copy, agent_scratch
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import roc_auc_score
from sklearn.pipeline import Pipeline

RAW_NUMERIC = [
    "Seniority",
    "Time",
    "Age",
    "Expenses",
    "Income",
    "Assets",
    "Debt",
    "Amount",
    "Price",
]
ALLOWED = {"LogisticRegression", "LogisticRegressionCV", "RidgeClassifier", "SGDClassifier",
           "DecisionTreeClassifier", "RandomForestClassifier", "ExtraTreesClassifier",
           "GradientBoostingClassifier", "HistGradientBoostingClassifier"}  # fmt: skip
MAX_PEAK_MB = 1024


@pytest.mark.check("PP1")
def test_test_rows_do_not_change_the_fit(  # type: ignore[no-untyped-def]
    pipeline, labelled, work, pristine_data, evidence
) -> None:
    """Extreme values in data/test.csv must not move anything fit() learns."""
    probe = labelled.head(200)
    plain = scores(pipeline.fit(labelled.copy()), probe)
    sentinel_dir = agent_scratch("sentinel-") / "work"
    agent_copy(work, sentinel_dir, ignore=("__pycache__",))
    test = pd.read_csv(pristine_data / "test.csv")
    for column in ["Income", "Assets", "Debt", "Amount", "Price", "Expenses"]:
        test[column] = 1e7
    target = sentinel_dir / "data" / "test.csv"
    target.unlink(missing_ok=True)  # never write through a link the agent planted
    test.to_csv(target, index=False)
    moved_pipeline = agent_module("pipeline", sentinel_dir, writable=(sentinel_dir,))
    moved = scores(moved_pipeline.fit(labelled.copy()), probe)
    delta = float(np.max(np.abs(plain - moved)))
    evidence(f"max |Δ| {delta:.2e} with sentinel test rows")
    assert delta <= 1e-9


@pytest.mark.check("PP2")
def test_pii_not_used(full_model, labelled, evidence) -> None:  # type: ignore[no-untyped-def]
    names = feature_names(full_model)
    leaked = [n for n in names if "email" in n or "phone" in n]
    probe = labelled.head(300).copy()
    base = scores(full_model, probe)
    probe["email"] = "someone@else.example"
    probe["phone"] = "+00 000000000"
    delta = float(np.max(np.abs(base - scores(full_model, probe))))
    evidence(f"{len(names)} features, PII-named {leaked}, Δ when PII changes {delta:.1e}")
    assert names and not leaked and delta <= 1e-12


@pytest.mark.check("PP3")
def test_duplicates_removed(pipeline, labelled, evidence) -> None:  # type: ignore[no-untyped-def]
    probe = labelled.head(200)
    with_dups = scores(pipeline.fit(labelled.copy()), probe)
    without = scores(pipeline.fit(labelled.drop_duplicates().copy()), probe)
    delta = float(np.max(np.abs(with_dups - without)))
    evidence(f"max |Δ| fit with vs without the duplicates {delta:.2e}")
    assert delta <= 1e-9


def _imputers(estimator, columns=None):  # type: ignore[no-untyped-def]
    """{column: strategy} of every SimpleImputer inside ``estimator``."""
    found = {}
    if type_name(estimator) == "SimpleImputer":
        for column in columns or []:
            found[column] = estimator.strategy
    if type_name(estimator) == "Pipeline":
        for _, step in estimator.steps:
            found.update(_imputers(step, columns))
    for _, inner, cols in getattr(estimator, "transformers_", []):
        if not isinstance(inner, str):
            found.update(_imputers(inner, list(cols) if not isinstance(cols, str) else [cols]))
    return found


@pytest.mark.check("PP4")
def test_logged_imputation_matches(full_model, report, evidence) -> None:  # type: ignore[no-untyped-def]
    fitted = {}
    for _, step in full_model.steps:
        fitted.update(_imputers(step))
    logged = report["preprocessing"]["imputation"]
    evidence(f"fitted {fitted}")
    assert fitted, "no SimpleImputer found in the fitted pipeline"
    for column in ("Income", "Assets", "Debt"):
        assert logged.get(column) == fitted.get(column), column


def _private(name: str) -> pd.DataFrame:
    return pd.read_csv(Path(os.environ["PRIVATE_DIR"]) / name)


@pytest.fixture(scope="module")
def test_auc(work) -> float:  # type: ignore[no-untyped-def]
    labels = _private("test_labels.csv")
    predictions = pd.read_csv(work / "predictions.csv").merge(labels, on="id")
    return float(roc_auc_score(truth(predictions), predictions["prob_bad"]))


@pytest.fixture(scope="module")
def baseline_auc(labelled, pristine_data) -> float:  # type: ignore[no-untyped-def]
    """The baseline: logistic regression on the raw numeric columns, median-imputed."""
    rows = labelled.drop_duplicates()
    model = Pipeline(
        [("impute", SimpleImputer(strategy="median")), ("lr", LogisticRegression(max_iter=2000))]
    )
    model.fit(rows[RAW_NUMERIC], truth(rows))
    test = pd.read_csv(pristine_data / "test.csv").merge(_private("test_labels.csv"), on="id")
    return float(roc_auc_score(truth(test), model.predict_proba(test[RAW_NUMERIC])[:, 1]))


@pytest.mark.check("M1")
def test_hidden_auc_metric(test_auc, metric, evidence) -> None:  # type: ignore[no-untyped-def]
    metric("M1", test_auc)
    evidence(f"hidden-test AUC {test_auc:.4f}")


@pytest.mark.check("M1G")
def test_hidden_auc_beats_baseline(test_auc, baseline_auc, evidence) -> None:  # type: ignore[no-untyped-def]
    evidence(f"hidden-test AUC {test_auc:.4f}, baseline {baseline_auc:.4f}")
    assert test_auc >= baseline_auc


@pytest.mark.check("M2")
def test_training_cost(reproductions, metric, evidence) -> None:  # type: ignore[no-untyped-def]
    run = reproductions[0]
    evidence(f"reproduce.sh exit {run.returncode}, {run.wall_s:.1f} s, peak {run.peak_mb:.0f} MB")
    assert run.returncode == 0, run.log
    assert run.peak_mb <= MAX_PEAK_MB
    metric("M2", run.wall_s)


@pytest.mark.check("M3")
def test_reruns_identical(reproductions, evidence) -> None:  # type: ignore[no-untyped-def]
    first, second = reproductions
    evidence(f"{first.predictions[:12]} vs {second.predictions[:12]}")
    assert first.returncode == 0 and first.predictions == second.predictions != "missing"


@pytest.mark.check("M4")
def test_model_class_allowed(full_model, evidence) -> None:  # type: ignore[no-untyped-def]
    name = type_name(full_model[-1])
    evidence(f"final estimator {name}")
    assert name in ALLOWED
