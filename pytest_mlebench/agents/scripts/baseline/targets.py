"""What a target column asks for: labels or numbers, which class is the positive one, and
predictions given back in the column's own type."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .task import LABEL_METRICS, PROBABILITY_METRICS

POSITIVE_WORDS = ("1", "yes", "true", "y", "positive", "pos")
REGRESSION_METRICS = {"rmse", "rmsle", "rmse_log", "mae", "smape"}


def is_classification(target: pd.Series, metric: str) -> bool:
    if metric in PROBABILITY_METRICS | LABEL_METRICS:
        return True
    if metric in REGRESSION_METRICS:
        return False
    return not pd.api.types.is_float_dtype(target) and target.nunique() <= 20


def positive_class(labels: pd.Series) -> str:
    """The class whose probability a binary metric scores: a word meaning yes, else the rarer."""
    classes = sorted(labels.unique())
    for word in POSITIVE_WORDS:
        for value in classes:
            if value.strip().lower() == word:
                return value
    return str(labels.value_counts().idxmin())


def restore_type(values: np.ndarray, like: pd.Series) -> np.ndarray:
    """Predicted labels (strings) as numbers again when the target column held numbers."""
    if pd.api.types.is_numeric_dtype(like):
        return pd.to_numeric(pd.Series(values)).to_numpy()
    return values
