"""The weighted ROC AUC of alaska2-image-steganalysis: bands of true-positive rate, weighted.

Kaggle's evaluation splits the area under the ROC curve into horizontal bands of true-positive
rate, ``[0, 0.4]`` and ``[0.4, 1]``, weighs the first twice as much as the second, and
normalises by the weighted area of a perfect curve (``2·0.4 + 1·0.6 = 1.4``), so a perfect
ranking scores 1 and constant predictions (the diagonal) score ``(2·0.32 + 0.18) / 1.4 ≈
0.5857``. Here the band areas are integrated exactly over the piecewise-linear ROC curve (ties
between scores give a diagonal step), so a band edge falling inside a segment is split where
the segment crosses it.
"""

from __future__ import annotations

from itertools import pairwise

import numpy as np

from pytest_mlebench.graders.metrics.base import (
    Columns,
    FloatArray,
    Metric,
    require_both_classes,
    require_same_shape,
)

TPR_BANDS = (0.0, 0.4, 1.0)
"""Edges of the true-positive-rate bands, Kaggle's."""
BAND_WEIGHTS = (2.0, 1.0)
"""Weight of each band, lowest first, Kaggle's."""


def roc_points(labels: FloatArray, scores: FloatArray) -> tuple[FloatArray, FloatArray]:
    """The ROC curve's corners ``(fpr, tpr)``, ``(0, 0)`` to ``(1, 1)``, one per distinct score."""
    order = np.argsort(-scores, kind="stable")
    ranked, hits = scores[order], labels[order]
    last_of_tie = np.r_[np.flatnonzero(np.diff(ranked)), ranked.size - 1]
    true_positives = np.cumsum(hits)[last_of_tie]
    false_positives = (last_of_tie + 1) - true_positives
    fpr = np.r_[0.0, false_positives / false_positives[-1]]
    tpr = np.r_[0.0, true_positives / true_positives[-1]]
    return fpr, tpr


def _band_integral(y: FloatArray, low: float, high: float) -> FloatArray:
    """Antiderivative of ``clip(y − low, 0, high − low)`` in ``y``."""
    height = high - low
    inside = np.clip(y - low, 0.0, height)
    return inside**2 / 2 + height * np.maximum(y - high, 0.0)


def band_area(fpr: FloatArray, tpr: FloatArray, low: float, high: float) -> float:
    """Area of the band ``low ≤ TPR ≤ high`` that lies under the piecewise-linear curve."""
    width = np.diff(fpr)
    rise = np.diff(tpr)
    primitive = _band_integral(tpr, low, high)
    flat = np.clip(tpr[:-1] - low, 0.0, high - low)
    safe_rise = np.where(rise == 0, 1.0, rise)
    mean = np.where(rise == 0, flat, np.diff(primitive) / safe_rise)
    return float(np.sum(width * mean))


def weighted_auc(y_true: Columns, y_pred: Columns) -> float:
    """Kaggle's weighted AUC of one score column against 0/1 answers; higher is better."""
    require_same_shape(y_true, y_pred, "weighted-auc")
    labels = y_true.float_column()
    require_both_classes(labels, y_true.names[0], "weighted-auc")
    fpr, tpr = roc_points(labels, y_pred.float_column())
    total = 0.0
    normaliser = 0.0
    for (low, high), weight in zip(pairwise(TPR_BANDS), BAND_WEIGHTS, strict=True):
        total += weight * band_area(fpr, tpr, low, high)
        normaliser += weight * (high - low)
    return total / normaliser


DECLARATIONS = (
    Metric(
        name="weighted-auc",
        perfect=1.0,
        lower_is_better=False,
        value_kind="real",
        rows_sum_to_one=False,
        compute=weighted_auc,
        description="ROC AUC with TPR bands [0, 0.4] and [0.4, 1] weighted 2 and 1 (alaska2)",
        arity="one",
    ),
)
