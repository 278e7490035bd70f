"""Metrics over predicted labels: accuracy, macro F1, quadratic weighted kappa."""

from __future__ import annotations

import numpy as np

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Array, Columns, Metric, require_same_shape


def accuracy(y_true: Columns, y_pred: Columns) -> float:
    """Share of cells whose predicted label equals the answer (over all target columns)."""
    require_same_shape(y_true, y_pred, "accuracy")
    matches = sum(
        _count_equal(y_true.values(j), y_pred.values(j)) for j in range(len(y_true.names))
    )
    rows, columns = y_true.shape
    return matches / (rows * columns)


def _count_equal(truth: Array, pred: Array) -> int:
    numeric = {truth.dtype.kind, pred.dtype.kind} <= set("biuf")
    if not numeric and truth.dtype != pred.dtype:  # text against numbers: compare as objects
        truth, pred = truth.astype(object), pred.astype(object)
    return int(np.count_nonzero(np.asarray(truth == pred, dtype=bool)))


def macro_f1(y_true: Columns, y_pred: Columns) -> float:
    """Unweighted mean of per-class F1 over every class seen in the answers or predictions.

    F1 of a class is ``2·TP / (answers of the class + predictions of the class)``; a class only
    ever predicted (or only ever answered) scores 0, as in scikit-learn's ``average="macro"``.
    """
    import pandas as pd  # only label metrics need it; grading numbers never imports pandas

    require_same_shape(y_true, y_pred, "macro-f1")
    rows = y_true.rows
    both = np.concatenate([y_true.values(0), y_pred.values(0)])
    codes, classes = pd.factorize(both, use_na_sentinel=False)
    true_codes, pred_codes = codes[:rows], codes[rows:]
    size = len(classes)
    hits = np.bincount(true_codes[true_codes == pred_codes], minlength=size)
    support = np.bincount(true_codes, minlength=size) + np.bincount(pred_codes, minlength=size)
    return float(np.mean(2.0 * hits / support))


def quadratic_weighted_kappa(y_true: Columns, y_pred: Columns) -> float:
    """Cohen's kappa with quadratic weights, over integer ratings.

    With weights ``(a - b)²`` (Kaggle's ``(i - j)² / (N - 1)²`` up to a factor that cancels),
    observed disagreement is ``mean((t - p)²)`` and the disagreement expected by chance from the
    two rating histograms is ``var(t) + var(p) + (mean(t) - mean(p))²`` — no confusion matrix is
    needed, so a wild prediction cannot blow up memory.
    """
    require_same_shape(y_true, y_pred, "quadratic-weighted-kappa")
    truth = y_true.float_column()
    if not np.all(np.isfinite(truth) & (truth == np.round(truth))):
        raise GraderError("quadratic-weighted-kappa: answers must be whole numbers")
    pred = y_pred.float_column()
    observed = float(np.mean((truth - pred) ** 2))
    expected = float(truth.var() + pred.var() + (truth.mean() - pred.mean()) ** 2)
    if expected == 0.0:
        return float("nan")
    return 1.0 - observed / expected


DECLARATIONS = (
    Metric(
        name="accuracy",
        perfect=1.0,
        lower_is_better=False,
        value_kind="label",
        rows_sum_to_one=False,
        compute=accuracy,
        description="share of exactly matching labels",
    ),
    Metric(
        name="quadratic-weighted-kappa",
        perfect=1.0,
        lower_is_better=False,
        value_kind="integer-label",
        rows_sum_to_one=False,
        compute=quadratic_weighted_kappa,
        description="Cohen's kappa with quadratic weights over integer ratings",
        arity="one",
    ),
    Metric(
        name="macro-f1",
        perfect=1.0,
        lower_is_better=False,
        value_kind="label",
        rows_sum_to_one=False,
        compute=macro_f1,
        description="unweighted mean of per-class F1",
        arity="one",
    ),
)
