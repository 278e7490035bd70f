"""Reference population for ``bike-demand`` (RMSLE): constants, raw columns, calendar features."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import (
    ExtraTreesRegressor,
    HistGradientBoostingRegressor,
    RandomForestRegressor,
)
from sklearn.linear_model import Ridge
from sklearn.neighbors import KNeighborsRegressor
from sklearn.tree import DecisionTreeRegressor

from leaderboard_population.common import (
    Candidate,
    Entry,
    Variant,
    log_target,
    mean_of,
    read_public,
    tabular_predictions,
)

RAW = ["season", "holiday", "workingday", "weather", "temp", "atemp", "humidity", "windspeed"]


def calendar(frame: pd.DataFrame, hour_as_category: bool = False) -> pd.DataFrame:
    """The raw columns plus hour, weekday, month and day of year from ``datetime``."""
    stamp = pd.to_datetime(frame["datetime"])
    out = frame[RAW].copy()
    out["hour"] = stamp.dt.hour.astype(str) if hour_as_category else stamp.dt.hour
    out["weekday"] = stamp.dt.dayofweek
    out["month"] = stamp.dt.month
    out["dayofyear"] = stamp.dt.dayofyear
    return out


def rush(frame: pd.DataFrame) -> pd.DataFrame:
    """Calendar features plus commuting-peak flags and hour x working-day interaction."""
    out = calendar(frame)
    peak = out["hour"].isin([7, 8, 17, 18, 19]) & (out["workingday"] == 1)
    out["peak"] = peak.astype(int)
    out["hour_workingday"] = out["hour"] + 24 * out["workingday"]
    out["night"] = out["hour"].isin([0, 1, 2, 3, 4, 5]).astype(int)
    return out


def _hgb(log: bool, lr: float = 0.1, iters: int = 200, leaves: int = 31) -> Candidate:
    def make(s: int) -> object:
        model = HistGradientBoostingRegressor(
            learning_rate=lr, max_iter=iters, max_leaf_nodes=leaves, random_state=s
        )
        return log_target(model, offset=1.0) if log else model

    label = f"{'log ' if log else ''}hgb lr={lr} iters={iters} leaves={leaves}"
    return Candidate(label, "gradient boosting", make, encoding="tree")


MODELS = [
    Candidate("knn k=10", "knn", lambda s: KNeighborsRegressor(10)),
    Candidate(
        "tree depth=8",
        "decision tree",
        lambda s: DecisionTreeRegressor(max_depth=8, random_state=s),
    ),
    Candidate("ridge", "linear", lambda s: Ridge(alpha=1.0)),
    Candidate("log ridge", "linear", lambda s: log_target(Ridge(alpha=1.0), offset=1.0)),
    Candidate(
        "random forest 200",
        "forest",
        lambda s: RandomForestRegressor(200, min_samples_leaf=2, random_state=s, n_jobs=1),
        encoding="tree",
    ),
    Candidate(
        "log extra trees 200",
        "forest",
        lambda s: log_target(
            ExtraTreesRegressor(200, min_samples_leaf=2, random_state=s, n_jobs=1), offset=1.0
        ),
        encoding="tree",
    ),
    _hgb(log=False),
    _hgb(log=True),
]
STRONG = [_hgb(log=True, lr=0.05, iters=800, leaves=63), _hgb(log=True, lr=0.03, iters=1500)]
VARIANTS = [Variant(rows=0.2, seed=1), Variant(rows=0.9, seed=2), Variant(seed=0)]


def entries(public: Path) -> Iterator[Entry]:
    """Yield every reference submission for ``bike-demand``."""
    train, test, sample = read_public(public)
    yield Entry("median count", "constant", sample.assign(count=train["count"].median()))
    yield Entry("mean count", "constant", sample.assign(count=train["count"].mean()))
    hour = pd.to_datetime(train["datetime"]).dt.hour
    by_hour = train.groupby(hour)["count"].median()
    test_hour = pd.to_datetime(test["datetime"]).dt.hour
    yield Entry("median by hour", "rule", sample.assign(count=test_hour.map(by_hour).to_numpy()))
    feature_sets = {
        "raw columns": (train[RAW], test[RAW]),
        "calendar": (calendar(train), calendar(test)),
    }
    kept: list[np.ndarray] = []
    for label, (x_train, x_test) in feature_sets.items():
        x_train = x_train.assign(count=train["count"])
        for name, family, count in tabular_predictions(
            MODELS, VARIANTS, x_train, "count", x_test, "value"
        ):
            yield Entry(f"{label}: {name}", family, sample.assign(count=np.clip(count, 0, None)))
    x_train, x_test = rush(train).assign(count=train["count"]), rush(test)
    for name, family, count in tabular_predictions(
        STRONG, [Variant(seed=0), Variant(rows=0.9, seed=3)], x_train, "count", x_test, "value"
    ):
        kept.append(np.log1p(np.clip(count, 0, None)))
        yield Entry(f"rush hours: {name}", family, sample.assign(count=np.clip(count, 0, None)))
    blend = np.expm1(mean_of(kept))
    yield Entry("rush hours: blend of log hgb models", "ensemble", sample.assign(count=blend))
