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
    """ROC AUC as the probability that a positive outscores a negative, ties counting one half.

    With the negatives' scores sorted, each positive's wins and ties are two binary searches;
    this equals the Mann–Whitney statistic and the area under the ROC curve with tied scores
    joined by a diagonal.
    """
    positive = labels == 1.0
    negatives = np.sort(scores[~positive])
    positives = np.sort(scores[positive])  # sorted queries keep the searches cache-friendly
    below = np.searchsorted(negatives, positives, side="left")
    through = np.searchsorted(negatives, positives, side="right")
    wins = float(below.sum()) + 0.5 * float((through - below).sum())
    return wins / (float(positives.size) * float(negatives.size))


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
    # One working copy, updated in place: clip, rescale rows, take logs.
    log_probability = np.clip(float_matrix(y_pred), LOG_LOSS_EPSILON, 1.0 - LOG_LOSS_EPSILON)
    log_probability /= log_probability.sum(axis=1, keepdims=True)
    np.log(log_probability, out=log_probability)
    return float(-np.einsum("ij,ij->", onehot, log_probability) / len(onehot))
