"""The model builders on table features: gradient boosting and a linear model.

A builder is prepared once per feature set and returns a *fit-and-predict* function
``run(fit_rows, hold_rows, y)``: it trains on the train rows ``fit_rows`` and predicts the train
rows ``hold_rows`` (the holdout), or the test rows when ``hold_rows`` is ``None``. Classifiers give
a probability for every class, also those missing from the rows they saw.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd

from .features import Features
from .task import Task

# run(fit_rows, hold_rows or None, y) -> predictions (see the module docstring)
FitPredict = Callable[[np.ndarray, Any, np.ndarray], np.ndarray]


def rows(frame: pd.DataFrame, which: np.ndarray) -> pd.DataFrame:
    return frame.iloc[which].reset_index(drop=True)


def boosting(task: Task, features: Features, classify: bool, loss: str | None = None) -> FitPredict:
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

    mask = [c in features.categorical for c in features.train.columns]

    def run(fit: np.ndarray, hold: np.ndarray | None, y: np.ndarray) -> np.ndarray:
        params: dict[str, Any] = dict(
            max_iter=600,
            learning_rate=0.06,
            max_leaf_nodes=31,
            min_samples_leaf=20,
            l2_regularization=1.0,
            early_stopping=True,
            validation_fraction=0.15,
            n_iter_no_change=30,
            categorical_features=mask if any(mask) else None,
            random_state=task.seed,
        )
        x_fit = rows(features.train, fit)
        x_out = features.test if hold is None else rows(features.train, hold)
        if classify:
            model = HistGradientBoostingClassifier(**params)
            model.fit(x_fit, y[fit])
            return full_proba(model, x_out, int(y.max()) + 1)
        model = HistGradientBoostingRegressor(loss=loss or "squared_error", **params)
        model.fit(x_fit, y[fit])
        return np.asarray(model.predict(x_out))

    return run


def softmax_scores(model: Any, x: Any, n_classes: int, sharpness: float = 2.0) -> np.ndarray:
    """Class scores of a margin classifier (an SVM) turned into probabilities by a softmax."""
    decision = np.asarray(model.decision_function(x), dtype=float)
    if decision.ndim == 1:
        decision = np.column_stack([-decision, decision])
    weights = np.exp(sharpness * (decision - decision.max(axis=1, keepdims=True)))
    proba = np.zeros((decision.shape[0], n_classes))
    proba[:, model.classes_.astype(int)] = weights / weights.sum(axis=1, keepdims=True)
    return proba


def full_proba(model: Any, x: Any, n_classes: int) -> np.ndarray:
    """Probabilities for every class, also those missing from the part the model saw."""
    proba = np.zeros((x.shape[0], n_classes))
    proba[:, model.classes_.astype(int)] = model.predict_proba(x)
    return proba


def linear_matrix(features: Features) -> tuple[Any, Any]:
    """Scaled numeric columns (log of the skewed ones) and one-hot categories, train and test."""
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    numeric = [c for c in features.train.columns if c not in features.categorical]
    parts_train, parts_test = [], []
    if numeric:
        median = features.train[numeric].median()
        train_num = features.train[numeric].fillna(median).fillna(0.0)
        test_num = features.test[numeric].fillna(median).fillna(0.0)
        skewed = [c for c in numeric if train_num[c].min() >= 0 and train_num[c].skew() > 2]
        train_num[skewed], test_num[skewed] = (
            np.log1p(train_num[skewed]),
            np.log1p(test_num[skewed]),
        )
        scaler = StandardScaler().fit(train_num)
        parts_train.append(np.clip(scaler.transform(train_num), -8, 8))
        parts_test.append(np.clip(scaler.transform(test_num), -8, 8))
    if features.categorical:
        encoder = OneHotEncoder(handle_unknown="ignore", sparse_output=False, min_frequency=3)
        cats = features.train[features.categorical].fillna(-1)
        encoder.fit(cats)
        parts_train.append(encoder.transform(cats))
        parts_test.append(encoder.transform(features.test[features.categorical].fillna(-1)))
    return np.hstack(parts_train), np.hstack(parts_test)


def linear(task: Task, features: Features, classify: bool) -> FitPredict:
    from sklearn.linear_model import LogisticRegression, RidgeCV

    x_train, x_test = linear_matrix(features)

    def run(fit: np.ndarray, hold: np.ndarray | None, y: np.ndarray) -> np.ndarray:
        x_out = x_test if hold is None else x_train[hold]
        if classify:
            model = LogisticRegression(C=0.5, max_iter=2000)
            model.fit(x_train[fit], y[fit])
            return full_proba(model, x_out, int(y.max()) + 1)
        model = RidgeCV(alphas=np.logspace(-2, 3, 12))
        model.fit(x_train[fit], y[fit])
        return np.asarray(model.predict(x_out))

    return run
