"""Shared fixtures of credit-risk-e2e's verifier: the report, reproduce.sh runs, fitted models."""

from __future__ import annotations

import hashlib
import json
import os
import resource
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from mlebench_agent_code import agent_module
from mlebench_agent_run import agent_copy, agent_scratch, run_agent

REPRODUCE_TIMEOUT_S = 120
OUTPUTS = ["predictions.csv", "validation_predictions.csv", "report.json"]


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "missing"


class Reproduction:
    """``bash reproduce.sh`` in a fresh copy of the workspace without its outputs."""

    def __init__(self, work: Path, target: Path) -> None:
        agent_copy(work, target, ignore=(*OUTPUTS, "__pycache__"))
        before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        started = time.monotonic()
        done = run_agent(["bash", "reproduce.sh"], cwd=target, timeout_s=REPRODUCE_TIMEOUT_S)
        self.returncode = -1 if done.timed_out else done.returncode
        self.log = done.output[-600:]
        self.wall_s = time.monotonic() - started
        self.peak_mb = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
        self.predictions = digest(target / "predictions.csv")


@pytest.fixture(scope="session")
def work() -> Path:
    return Path(os.environ["WORK_DIR"])


@pytest.fixture(scope="session")
def facts() -> dict[str, Any]:
    return json.loads((Path(os.environ["PRIVATE_DIR"]) / "facts.json").read_text())  # type: ignore[no-any-return]


@pytest.fixture(scope="session")
def report(work: Path) -> dict[str, Any]:
    data = json.loads((work / "report.json").read_text())
    assert isinstance(data, dict), "report.json is not a JSON object"
    return data


@pytest.fixture(scope="session")
def reproductions(work: Path) -> list[Reproduction]:
    base = agent_scratch("reproduce-")  # not pytest's basetemp: the verifier's root alone
    return [Reproduction(work, base / f"run{n}") for n in (1, 2)]


@pytest.fixture(scope="session")
def pristine_data() -> Path:
    return Path(os.environ["PRISTINE_DIR"]) / "data"


@pytest.fixture(scope="session")
def labelled(pristine_data: Path) -> pd.DataFrame:
    return pd.read_csv(pristine_data / "credit.csv")


@pytest.fixture(scope="session")
def validation_ids(pristine_data: Path) -> list[int]:
    return [int(x) for x in (pristine_data / "validation_ids.txt").read_text().split()]


@pytest.fixture(scope="session")
def pipeline(work: Path) -> Any:
    """The agent's ``pipeline`` module, imported in a child process as another user."""
    return agent_module("pipeline", work)


@pytest.fixture(scope="session")
def full_model(pipeline: Any, labelled: pd.DataFrame) -> Any:
    return pipeline.fit(labelled.copy())


@pytest.fixture(scope="session")
def train_model(pipeline: Any, labelled: pd.DataFrame, validation_ids: list[int]) -> Any:
    return pipeline.fit(labelled[~labelled["id"].isin(validation_ids)].copy())


@pytest.fixture(scope="session")
def extra() -> pd.DataFrame:
    return pd.read_csv(Path(os.environ["PRIVATE_DIR"]) / "extra.csv")


def scores(model: Any, rows: pd.DataFrame) -> np.ndarray:
    proba = np.asarray(model.predict_proba(rows))
    return proba[:, 1] if proba.ndim == 2 else proba


def truth(rows: pd.DataFrame) -> np.ndarray:
    return (rows["Status"] == "bad").astype(int).to_numpy()


def feature_names(model: Any) -> list[str]:
    try:
        return [str(n) for n in model[:-1].get_feature_names_out()]
    except Exception:
        return [str(n) for n in getattr(model[-1], "feature_names_in_", [])]
