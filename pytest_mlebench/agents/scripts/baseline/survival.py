"""The survival layout: a time and an event column in train only, a risk to predict. Exponential
hazard rates from Poisson boosting and a Poisson GLM, blended by Harrell's C on a holdout."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .features import table_features
from .models import linear_matrix, rows
from .search import choose_blend, holdout_split
from .task import Task

MAX_CONCORDANCE_ROWS = 3000


def survival_columns(task: Task) -> tuple[str, str] | None:
    """(time, event) when train has exactly two extra columns, one of them 0/1."""
    extra = [c for c in task.train.columns if c not in task.test.columns and c not in task.targets]
    if len(task.targets) != 1 or task.targets[0] in task.train.columns or len(extra) != 2:
        return None
    binary = [c for c in extra if set(task.train[c].dropna().unique()) <= {0, 1}]
    if len(binary) != 1:
        return None
    event = binary[0]
    duration = next(c for c in extra if c != event)
    if not pd.api.types.is_numeric_dtype(task.train[duration]):
        return None
    return duration, event


def solve_survival(task: Task, duration: str, event: str) -> pd.DataFrame:
    """Exponential hazard rates: Poisson boosting on event / time weighted by time."""
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.linear_model import PoissonRegressor

    features = table_features(task.train, task.test, [task.id_column, duration, event])
    times = np.clip(task.train[duration].to_numpy(dtype=float), 1e-3, None)
    times = np.maximum(times, np.quantile(times, 0.01))
    events = task.train[event].to_numpy(dtype=float)
    rate = events / times
    mask = [c in features.categorical for c in features.train.columns]
    x_lin_train, x_lin_test = linear_matrix(features)

    def boosted(fit: np.ndarray, x_out: pd.DataFrame) -> np.ndarray:
        model = HistGradientBoostingRegressor(
            loss="poisson",
            max_iter=300,
            learning_rate=0.04,
            max_leaf_nodes=15,
            min_samples_leaf=40,
            categorical_features=mask if any(mask) else None,
            early_stopping=True,
            random_state=task.seed,
        )
        model.fit(rows(features.train, fit), rate[fit], sample_weight=times[fit])
        return np.log(np.asarray(model.predict(x_out)))

    def linear(fit: np.ndarray, x_out: np.ndarray) -> np.ndarray:
        model = PoissonRegressor(alpha=1e-4, max_iter=1000)
        scale = times[fit].mean()
        model.fit(x_lin_train[fit], rate[fit] * scale, sample_weight=times[fit] / scale)
        return np.log(np.asarray(model.predict(x_out)))

    fit_rows, hold_rows = holdout_split(len(rate), task.seed, task.train[event].astype(str))
    holdout = [
        _ranks(boosted(fit_rows, rows(features.train, hold_rows))),
        _ranks(linear(fit_rows, x_lin_train[hold_rows])),
    ]
    truth_time, truth_event = times[hold_rows], events[hold_rows]
    weights = choose_blend(
        lambda risk: concordance(truth_time, truth_event, risk), holdout, ["boosting", "poisson"]
    )
    everything = np.arange(len(rate))
    test = [_ranks(boosted(everything, features.test)), _ranks(linear(everything, x_lin_test))]
    return task.submission(
        {task.targets[0]: sum(w * p for w, p in zip(weights, test, strict=True))}
    )


def _ranks(values: np.ndarray) -> np.ndarray:
    return pd.Series(values).rank().to_numpy() / len(values)


def concordance(time_: np.ndarray, event: np.ndarray, risk: np.ndarray) -> float:
    """Harrell's C on at most 3,000 rows (quadratic, vectorised)."""
    if len(time_) > MAX_CONCORDANCE_ROWS:
        keep = np.random.default_rng(0).choice(len(time_), MAX_CONCORDANCE_ROWS, replace=False)
        time_, event, risk = time_[keep], event[keep], risk[keep]
    earlier = (time_[:, None] < time_[None, :]) & (event[:, None] == 1)
    concordant = (risk[:, None] > risk[None, :]) & earlier
    tied = (risk[:, None] == risk[None, :]) & earlier
    return float((concordant.sum() + 0.5 * tied.sum()) / max(1, earlier.sum()))
