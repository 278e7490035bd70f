"""The table layout: one model per target column, or one multi-class model whose classes are the
submission's columns."""

from __future__ import annotations

import logging

import numpy as np
import pandas as pd

from .features import Features, subset, table_features
from .regression import fit_regression
from .search import fit_classes
from .targets import is_classification, positive_class, restore_type
from .task import PROBABILITY_METRICS, Task, Unsupported

LOG = logging.getLogger("baseline")


def solve_table(task: Task) -> pd.DataFrame:
    """One model per target column, or one multi-class model whose classes are the columns."""
    drop = [task.id_column, *task.targets]
    label_column = _class_label_column(task)
    if label_column is not None:
        LOG.info("layout: table, class probabilities of %r as columns", label_column)
        features = table_features(task.train, task.test, [*drop, label_column])
        probabilities = fit_classes(task, features, task.train[label_column].astype(str))
        return task.submission({c: probabilities[c] for c in task.targets})
    missing = [t for t in task.targets if t not in task.train.columns]
    if missing:
        raise Unsupported(f"target columns {missing} are not in train.csv")
    LOG.info("layout: table with %d target column(s)", len(task.targets))
    features = table_features(task.train, task.test, drop)
    values = {t: fit_target(task, features, task.train[t]) for t in task.targets}
    return task.submission(values)


def _class_label_column(task: Task) -> str | None:
    """A train column whose values are the submission's target columns (one-hot classes)."""
    if len(task.targets) < 2 or all(t in task.train.columns for t in task.targets):
        return None
    wanted = set(task.targets)
    for column in task.train.columns:
        values = set(task.train[column].dropna().astype(str).unique())
        if values and values <= wanted:
            return str(column)
    return None


def fit_target(task: Task, features: Features, target: pd.Series) -> np.ndarray:
    """Predictions for one target column, in the form its metric needs."""
    rows = target.notna().to_numpy()
    if is_classification(target, task.metric):
        labels = target[rows].astype(str)
        probabilities = fit_classes(task, subset(features, rows), labels)
        if task.metric in PROBABILITY_METRICS:
            return probabilities[positive_class(labels)].to_numpy()
        predicted = probabilities.idxmax(axis=1).to_numpy()
        return restore_type(predicted, target)
    return fit_regression(task, subset(features, rows), target[rows].astype(float))
