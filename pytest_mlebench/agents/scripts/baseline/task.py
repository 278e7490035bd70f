"""Reading the competition's files: the tables of ``$DATA_DIR`` and the metric its description
names."""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from .contract import Env

LOG = logging.getLogger("baseline")

# Order matters: specific names are matched before the generic words they contain.
METRIC_PATTERNS: tuple[tuple[str, str], ...] = (
    ("map", r"map@\s*\d+|mean average precision"),
    ("cindex", r"concordance|c-index|harrell"),
    ("qwk", r"kappa"),
    ("smape", r"smape|symmetric mean absolute percentage"),
    ("rmsle", r"rmsle|root mean squared logarithmic|mean squared log(arithmic)? error"),
    ("rmse_log", r"between the logarithms|rmse of log|logarithm of the (sale )?price"),
    ("logloss", r"log[- ]?loss|logarithmic loss|cross[- ]entropy"),
    ("auc", r"roc|auc|area under"),
    ("f1", r"\bf1\b|f-score|f1-score"),
    ("mae", r"mean absolute error|\bmae\b"),
    ("rmse", r"root mean squared? error|\brmse\b"),
    ("accuracy", r"accuracy"),
)
PROBABILITY_METRICS = {"auc", "logloss"}
LABEL_METRICS = {"accuracy", "f1", "qwk"}


class Unsupported(Exception):
    """A data layout this agent has no solver for (said plainly, not as a crash)."""


@dataclass
class Task:
    """What the agent found in the data folder."""

    train: pd.DataFrame
    test: pd.DataFrame
    sample: pd.DataFrame
    metric: str
    id_column: str
    targets: list[str]
    seed: int
    env: Env

    def submission(self, values: dict[str, Any]) -> pd.DataFrame:
        frame = self.sample[[self.id_column]].copy()
        for column in self.targets:
            frame[column] = values[column]
        return frame


def load_task(env: Env) -> Task:
    sample = pd.read_csv(env.data / "sample_submission.csv")
    description = read_text(env.data / "description.md")
    metric = detect_metric(description)
    if not (env.data / "train.csv").is_file():
        found = ", ".join(sorted(p.name for p in env.data.iterdir())[:8])
        raise Unsupported(f"no train.csv among the public files ({found})")
    train = pd.read_csv(env.data / "train.csv")
    test_path = env.data / "test.csv"
    test = pd.read_csv(test_path) if test_path.is_file() else sample[[sample.columns[0]]]
    task = Task(
        train=train,
        test=test,
        sample=sample,
        metric=metric,
        id_column=str(sample.columns[0]),
        targets=[str(c) for c in sample.columns[1:]],
        seed=env.seed,
        env=env,
    )
    LOG.info(
        "metric %s; train %s, test %s; id %r, targets %s",
        metric,
        train.shape,
        test.shape,
        task.id_column,
        task.targets[:5],
    )
    return task


def read_text(path: Path) -> str:
    try:
        return path.read_text("utf-8", errors="replace")
    except OSError:
        return ""


def detect_metric(description: str) -> str:
    """The metric named in the description's evaluation section (or the whole text)."""
    text = description.lower()
    match = re.search(r"#+\s*evaluation(.*?)(\n#+\s|\Z)", text, re.DOTALL)
    section = match.group(1) if match else text
    for name, pattern in METRIC_PATTERNS:
        if re.search(pattern, section):
            return name
    return "accuracy"
