"""Shared fixtures of data-leak-fix's verifier: the agent's pipeline module and the data."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from mlebench_agent_code import agent_module


@pytest.fixture(scope="session")
def pipeline() -> Any:
    """The agent's ``pipeline`` module, imported in a child process as another user."""
    return agent_module("pipeline", Path(os.environ["WORK_DIR"]))


@pytest.fixture(scope="session")
def given(pipeline: Any) -> pd.DataFrame:
    return pd.read_csv(Path(os.environ["PRISTINE_DIR"]) / "data" / "customers.csv")


@pytest.fixture(scope="session")
def holdout() -> pd.DataFrame:
    return pd.read_csv(Path(os.environ["PRIVATE_DIR"]) / "holdout.csv")


@pytest.fixture(scope="session")
def holdout_auc(pipeline: Any, given: pd.DataFrame, holdout: pd.DataFrame) -> float:
    """AUC on the later months of a model fitted by the agent's ``fit`` on every labelled row."""
    from sklearn.metrics import roc_auc_score

    model = pipeline.fit(given.copy())
    rows = holdout.drop(columns=["default"])
    return float(roc_auc_score(holdout["default"], scores(model, rows)))


def scores(model: Any, rows: pd.DataFrame) -> Any:
    import numpy as np

    proba = np.asarray(model.predict_proba(rows))
    return proba[:, 1] if proba.ndim == 2 else proba
