"""Shared pieces of the reference populations: entries, feature matrices and model grids."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from sklearn.compose import ColumnTransformer
from sklearn.impute import SimpleImputer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import (
    OneHotEncoder,
    OrdinalEncoder,
    SplineTransformer,
    StandardScaler,
)

Estimator = Any
ModelFactory = Callable[[int], Estimator]


@dataclass(frozen=True)
class Entry:
    """One leaderboard entry: what produced the submission, and the submission itself."""

    name: str
    family: str
    submission: pd.DataFrame


@dataclass(frozen=True)
class Candidate:
    """A model to fit: ``make(seed)`` builds a fresh estimator."""

    name: str
    family: str
    make: ModelFactory
    # "linear": one-hot + impute + scale; "spline": the same with cubic splines of numerics;
    # "tree": ordinal codes with NaN kept; "category": the same as a pandas frame, so that
    # gradient boosting can name its categorical columns.
    encoding: str = "linear"


def read_public(public: Path) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """train.csv, test.csv and sample_submission.csv of a prepared competition."""
    return (
        pd.read_csv(public / "train.csv"),
        pd.read_csv(public / "test.csv"),
        pd.read_csv(public / "sample_submission.csv"),
    )


def encoder(frame: pd.DataFrame, encoding: str) -> ColumnTransformer:
    """Column transformer for a feature frame: categoricals encoded, numerics imputed."""
    categorical = [c for c in frame.columns if not pd.api.types.is_numeric_dtype(frame[c])]
    numeric = [c for c in frame.columns if c not in categorical]
    if encoding in ("tree", "category"):
        cat_step = OrdinalEncoder(handle_unknown="use_encoded_value", unknown_value=-1)
        num_step: Any = "passthrough"
    elif encoding == "spline":
        cat_step = make_pipeline(
            SimpleImputer(strategy="constant", fill_value="missing"),
            OneHotEncoder(handle_unknown="ignore", min_frequency=5, sparse_output=False),
        )
        num_step = make_pipeline(
            SimpleImputer(strategy="median"),
            SplineTransformer(n_knots=5, degree=3),
            StandardScaler(),
        )
    else:
        cat_step = make_pipeline(
            SimpleImputer(strategy="constant", fill_value="missing"),
            OneHotEncoder(handle_unknown="ignore", min_frequency=5, sparse_output=False),
        )
        num_step = make_pipeline(SimpleImputer(strategy="median"), StandardScaler())
    transformer = ColumnTransformer(
        [("cat", cat_step, categorical), ("num", num_step, numeric)],
        verbose_feature_names_out=False,
    )
    return transformer.set_output(transform="pandas") if encoding == "category" else transformer


def fit_predict(
    candidate: Candidate,
    seed: int,
    x_train: pd.DataFrame,
    y_train: Sequence[Any] | np.ndarray | pd.Series,
    x_test: pd.DataFrame,
    output: str,
) -> np.ndarray:
    """Fit the candidate and predict: ``label``, ``proba`` (class matrix) or ``value``."""
    model = make_pipeline(encoder(x_train, candidate.encoding), candidate.make(seed))
    model.fit(x_train, y_train)
    if output == "proba":
        return np.asarray(model.predict_proba(x_test))
    return np.asarray(model.predict(x_test))


def subsample(n: int, fraction: float, seed: int) -> np.ndarray:
    """Sorted row positions of a random ``fraction`` of ``n`` rows (all rows when 1.0)."""
    if fraction >= 1.0:
        return np.arange(n)
    rng = np.random.default_rng(seed)
    return np.sort(rng.choice(n, size=max(2, int(n * fraction)), replace=False))


def feature_subset(columns: Sequence[str], fraction: float, seed: int) -> list[str]:
    """A random ``fraction`` of the feature columns, in their original order."""
    if fraction >= 1.0:
        return list(columns)
    rng = np.random.default_rng(seed + 7919)
    keep = set(rng.choice(len(columns), size=max(1, int(len(columns) * fraction)), replace=False))
    return [c for i, c in enumerate(columns) if i in keep]


@dataclass(frozen=True)
class Variant:
    """How much of the data a population entry uses: a share of rows and of feature columns."""

    rows: float = 1.0
    columns: float = 1.0
    seed: int = 0

    @property
    def label(self) -> str:
        parts = [f"seed={self.seed}"]
        if self.rows < 1.0:
            parts.append(f"rows={self.rows:.0%}")
        if self.columns < 1.0:
            parts.append(f"cols={self.columns:.0%}")
        return " ".join(parts)


def tabular_predictions(
    candidates: Sequence[Candidate],
    variants: Sequence[Variant],
    train: pd.DataFrame,
    target: str,
    test: pd.DataFrame,
    output: str,
    features: Sequence[str] | None = None,
) -> Iterator[tuple[str, str, np.ndarray]]:
    """Yield ``(name, family, prediction)`` for every candidate under every variant."""
    columns = list(features) if features is not None else [c for c in test.columns if c != "id"]
    for candidate in candidates:
        for variant in variants:
            rows = subsample(len(train), variant.rows, variant.seed)
            cols = feature_subset(columns, variant.columns, variant.seed)
            part = train.iloc[rows]
            prediction = fit_predict(
                candidate, variant.seed, part[cols], part[target], test[cols], output
            )
            yield f"{candidate.name} {variant.label}", candidate.family, prediction


def rank_average(predictions: Sequence[np.ndarray]) -> np.ndarray:
    """Average of the predictions' ranks scaled to [0, 1] (an ensemble for rank metrics)."""
    ranks = [pd.Series(p).rank().to_numpy() / len(p) for p in predictions]
    return np.mean(ranks, axis=0)


def log_target(regressor: Estimator, offset: float = 0.0) -> Estimator:
    """Fit ``regressor`` on log(y + offset) and predict back on the original scale."""
    from sklearn.compose import TransformedTargetRegressor

    return TransformedTargetRegressor(
        regressor=regressor,
        func=lambda y: np.log(y + offset),
        inverse_func=lambda z: np.exp(z) - offset,
    )


def variants(
    seeds: Sequence[int], rows: Sequence[float] = (1.0,), columns: Sequence[float] = (1.0,)
) -> list[Variant]:
    """Every combination of seed, row share and column share."""
    return [Variant(rows=r, columns=c, seed=s) for s in seeds for r in rows for c in columns]


def mean_of(predictions: Sequence[np.ndarray]) -> np.ndarray:
    return np.mean(np.stack(predictions), axis=0)
