"""Metrics over scores and probabilities: ROC AUC and log loss, binary and multi-column."""

from __future__ import annotations

import numpy as np
import pandas as pd

from graders.errors import GraderError
from graders.metrics.base import (
    FloatArray,
    float_column,
    float_matrix,
    require_binary,
    require_both_classes,
    require_same_shape,
)

LOG_LOSS_EPSILON = 1e-15
"""Probabilities are clipped to [ε, 1 − ε] before the logarithm, as on Kaggle."""


def roc_auc(y_true: pd.DataFrame, y_pred: pd.DataFrame) -> float:
    """Area under the ROC curve of one score column against 0/1 answers."""
    require_same_shape(y_true, y_pred, "roc-auc")
    labels = float_column(y_true)
    require_both_classes(labels, str(y_true.columns[0]), "roc-auc")
    return binary_auc(labels, float_column(y_pred))


def mean_column_roc_auc(y_true: pd.DataFrame, y_pred: pd.DataFrame) -> float:
    """Mean of the ROC AUC of each target column against its answer column."""
    require_same_shape(y_true, y_pred, "mean-column-roc-auc")
    scores = []
    for position, column in enumerate(y_true.columns):
        labels = float_column(y_true, position)
        require_both_classes(labels, str(column), "mean-column-roc-auc")
        scores.append(binary_auc(labels, float_column(y_pred, position)))
    return float(np.mean(scores))


def binary_auc(labels: FloatArray, scores: FloatArray) -> float:
    """ROC AUC as the Mann–Whitney statistic; tied scores share their average rank.

    ``AUC = (sum of positive ranks − P(P+1)/2) / (P·N)`` for ``P`` positives and ``N`` negatives,
    which counts a tied positive/negative pair as one half — the same as the area under the
    step curve with ties drawn diagonally.
    """
    size = scores.size
    order = np.argsort(scores)
    ranked = scores[order]
    starts_group = np.empty(size, dtype=bool)
    starts_group[0] = True
    np.not_equal(ranked[1:], ranked[:-1], out=starts_group[1:])
    group = np.cumsum(starts_group) - 1
    starts = np.flatnonzero(starts_group)
    sizes = np.diff(np.append(starts, size))
    average_rank = starts + (sizes + 1) / 2.0
    positives_in_group = np.bincount(group, weights=labels[order], minlength=starts.size)
    positives = float(positives_in_group.sum())
    negatives = size - positives
    rank_sum = float(average_rank @ positives_in_group)
    return (rank_sum - positives * (positives + 1) / 2.0) / (positives * negatives)


def log_loss(y_true: pd.DataFrame, y_pred: pd.DataFrame) -> float:
    """Binary cross-entropy of one probability column against 0/1 answers."""
    require_same_shape(y_true, y_pred, "log-loss")
    labels = float_column(y_true)
    require_binary(labels, str(y_true.columns[0]), "log-loss")
    probability = np.clip(float_column(y_pred), LOG_LOSS_EPSILON, 1.0 - LOG_LOSS_EPSILON)
    likelihood = np.where(labels == 1.0, probability, 1.0 - probability)
    return float(-np.mean(np.log(likelihood)))


def multi_class_log_loss(y_true: pd.DataFrame, y_pred: pd.DataFrame) -> float:
    """Cross-entropy of class probabilities against one-hot answers, Kaggle style.

    Probabilities are clipped to [ε, 1 − ε] and each row is rescaled to sum to 1; the loss is
    ``−(1/n) Σᵢ Σⱼ yᵢⱼ log pᵢⱼ``.
    """
    require_same_shape(y_true, y_pred, "multi-class-log-loss")
    onehot = float_matrix(y_true)
    if not np.all((onehot >= 0.0) & (onehot <= 1.0)) or not np.allclose(onehot.sum(axis=1), 1.0):
        raise GraderError(
            "multi-class-log-loss: answers must be one-hot rows (one column per class, "
            "values in [0, 1] summing to 1)"
        )
    probability = np.clip(float_matrix(y_pred), LOG_LOSS_EPSILON, 1.0 - LOG_LOSS_EPSILON)
    probability /= probability.sum(axis=1, keepdims=True)
    return float(-np.sum(onehot * np.log(probability)) / len(onehot))
