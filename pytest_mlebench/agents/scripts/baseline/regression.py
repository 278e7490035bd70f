"""Numeric targets: train on a scale that suits the metric (log for RMSLE, ...), search boosting,
tf-idf ridge and a linear model on a holdout, and give predictions back on the target's scale."""

from __future__ import annotations

import logging
from collections.abc import Callable

import numpy as np
import pandas as pd

from .features import Features
from .models import FitPredict, boosting, linear
from .search import choose_blend, holdout_split
from .task import Task
from .text import text_regressor

LOG = logging.getLogger("baseline")

TARGET_TRANSFORMS: dict[
    str, tuple[Callable[[np.ndarray], np.ndarray], Callable[[np.ndarray], np.ndarray]]
] = {
    "log1p": (np.log1p, np.expm1),
    "log": (np.log, np.exp),
    "none": (lambda v: v, lambda v: v),
}


def fit_regression(task: Task, features: Features, target: pd.Series) -> np.ndarray:
    """Predictions for a numeric target, trained on a scale that suits the metric."""
    y_raw = target.to_numpy(dtype=float)
    transform = _regression_transform(task.metric, y_raw)
    forward, backward = TARGET_TRANSFORMS[transform]
    y = forward(y_raw)
    LOG.info("regression on the %s scale", transform)
    builders: list[tuple[str, FitPredict]] = [
        ("gradient boosting", boosting(task, features, classify=False))
    ]
    if features.text is not None:
        builders.append(("tfidf+ridge", text_regressor(task, features)))
    if features.train.shape[1] > 0:
        builders.append(("linear", linear(task, features, classify=False)))
    fit_rows, hold_rows = holdout_split(len(y), task.seed)
    holdout = [build(fit_rows, hold_rows, y) for _, build in builders]
    truth = y_raw[hold_rows]
    weights = choose_blend(
        lambda p: -_regression_error(task.metric, truth, _clip(backward(p), task.metric)),
        holdout,
        [n for n, _ in builders],
    )
    everything = np.arange(len(y))
    blended = sum(
        w * build(everything, None, y)
        for (_, build), w in zip(builders, weights, strict=True)
        if w > 0
    )
    return _clip(backward(np.asarray(blended)), task.metric)


def _regression_transform(metric: str, y: np.ndarray) -> str:
    if metric in {"rmsle", "smape", "mae"} and (y >= 0).all():
        return "log1p"
    if metric == "rmse_log" and (y > 0).all():
        return "log"
    return "none"


def _regression_error(metric: str, truth: np.ndarray, pred: np.ndarray) -> float:
    if metric == "rmsle":
        return float(np.sqrt(np.mean((np.log1p(pred) - np.log1p(truth)) ** 2)))
    if metric == "rmse_log":
        return float(np.sqrt(np.mean((np.log(pred) - np.log(truth)) ** 2)))
    if metric == "smape":
        denominator = np.abs(truth) + np.abs(pred)
        safe = np.where(denominator == 0, 1.0, denominator)
        return float(np.mean(200 * np.abs(pred - truth) / safe))
    if metric == "mae":
        return float(np.mean(np.abs(pred - truth)))
    return float(np.sqrt(np.mean((pred - truth) ** 2)))


def _clip(values: np.ndarray, metric: str) -> np.ndarray:
    values = np.nan_to_num(np.asarray(values, dtype=float), nan=0.0, posinf=1e12, neginf=-1e12)
    if metric in {"rmsle", "smape"}:
        return np.clip(values, 0.0, None)
    if metric == "rmse_log":
        return np.clip(values, 1e-6, None)
    return values
