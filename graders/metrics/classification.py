"""Metrics over predicted labels: accuracy, macro F1, quadratic weighted kappa."""

from __future__ import annotations

import numpy as np
import pandas as pd

from graders.errors import GraderError
from graders.metrics.base import float_column, require_same_shape


def accuracy(y_true: pd.DataFrame, y_pred: pd.DataFrame) -> float:
    """Share of cells whose predicted label equals the answer (over all target columns)."""
    require_same_shape(y_true, y_pred, "accuracy")
    matches = np.asarray(y_true.to_numpy() == y_pred.to_numpy(), dtype=bool)
    return float(matches.mean())


def macro_f1(y_true: pd.DataFrame, y_pred: pd.DataFrame) -> float:
    """Unweighted mean of per-class F1 over every class seen in the answers or predictions.

    F1 of a class is ``2·TP / (answers of the class + predictions of the class)``; a class only
    ever predicted (or only ever answered) scores 0, as in scikit-learn's ``average="macro"``.
    """
    require_same_shape(y_true, y_pred, "macro-f1")
    rows = len(y_true)
    both = np.concatenate([y_true.iloc[:, 0].to_numpy(), y_pred.iloc[:, 0].to_numpy()])
    codes, classes = pd.factorize(both, use_na_sentinel=False)
    true_codes, pred_codes = codes[:rows], codes[rows:]
    size = len(classes)
    hits = np.bincount(true_codes[true_codes == pred_codes], minlength=size)
    support = np.bincount(true_codes, minlength=size) + np.bincount(pred_codes, minlength=size)
    return float(np.mean(2.0 * hits / support))


def quadratic_weighted_kappa(y_true: pd.DataFrame, y_pred: pd.DataFrame) -> float:
    """Cohen's kappa with quadratic weights, over integer ratings.

    With weights ``(a - b)²`` (Kaggle's ``(i - j)² / (N - 1)²`` up to a factor that cancels),
    observed disagreement is ``mean((t - p)²)`` and the disagreement expected by chance from the
    two rating histograms is ``var(t) + var(p) + (mean(t) - mean(p))²`` — no confusion matrix is
    needed, so a wild prediction cannot blow up memory.
    """
    require_same_shape(y_true, y_pred, "quadratic-weighted-kappa")
    truth = float_column(y_true)
    if not np.all(np.isfinite(truth) & (truth == np.round(truth))):
        raise GraderError("quadratic-weighted-kappa: answers must be whole numbers")
    pred = float_column(y_pred)
    observed = float(np.mean((truth - pred) ** 2))
    expected = float(truth.var() + pred.var() + (truth.mean() - pred.mean()) ** 2)
    if expected == 0.0:
        return float("nan")
    return 1.0 - observed / expected
