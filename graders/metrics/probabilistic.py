"""Metrics over scores and probabilities: ROC AUC and log loss, binary and multi-column."""

from __future__ import annotations

import numpy as np

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import (
    Columns,
    FloatArray,
    Metric,
    require_binary,
    require_both_classes,
    require_same_shape,
)

LOG_LOSS_EPSILON = 1e-15
"""Probabilities are clipped to [ε, 1 − ε] before the logarithm, as on Kaggle."""

BLOCK_ROWS = 1 << 16
"""Rows per block where a metric works through a matrix block by block (bounded temporaries)."""


def roc_auc(y_true: Columns, y_pred: Columns) -> float:
    """Area under the ROC curve of one score column against 0/1 answers."""
    require_same_shape(y_true, y_pred, "roc-auc")
    labels = y_true.float_column()
    require_both_classes(labels, y_true.names[0], "roc-auc")
    return binary_auc(labels, y_pred.float_column())


def mean_column_roc_auc(y_true: Columns, y_pred: Columns) -> float:
    """Mean of the ROC AUC of each target column against its answer column."""
    require_same_shape(y_true, y_pred, "mean-column-roc-auc")
    scores = []
    for position, column in enumerate(y_true.names):
        labels = y_true.float_column(position)
        require_both_classes(labels, column, "mean-column-roc-auc")
        scores.append(binary_auc(labels, y_pred.float_column(position)))
    return float(np.mean(scores))


def binary_auc(labels: FloatArray, scores: FloatArray) -> float:
    """ROC AUC as the probability that a positive outscores a negative, ties counting one half.

    With the negatives' scores sorted, each positive's wins and ties are two binary searches;
    this equals the Mann–Whitney statistic and the area under the ROC curve with tied scores
    joined by a diagonal.
    """
    positive = labels == 1.0
    negatives = scores[~positive]
    negatives.sort()
    positives = scores[positive]
    positives.sort()  # sorted queries keep the searches cache-friendly
    del positive
    below = np.searchsorted(negatives, positives, side="left")
    wins = float(below.sum())
    through = np.searchsorted(negatives, positives, side="right")
    through -= below
    wins += 0.5 * float(through.sum())
    return wins / (float(positives.size) * float(negatives.size))


def log_loss(y_true: Columns, y_pred: Columns) -> float:
    """Binary cross-entropy of one probability column against 0/1 answers."""
    require_same_shape(y_true, y_pred, "log-loss")
    labels = y_true.float_column()
    require_binary(labels, y_true.names[0], "log-loss")
    probability = np.clip(y_pred.float_column(), LOG_LOSS_EPSILON, 1.0 - LOG_LOSS_EPSILON)
    likelihood = np.where(labels == 1.0, probability, 1.0 - probability)
    return float(-np.mean(np.log(likelihood)))


def multi_class_log_loss(y_true: Columns, y_pred: Columns) -> float:
    """Cross-entropy of class probabilities against one-hot answers, Kaggle style.

    Probabilities are clipped to [ε, 1 − ε] and each row is rescaled to sum to 1; the loss is
    ``−(1/n) Σᵢ Σⱼ yᵢⱼ log pᵢⱼ``. The rows are worked through in blocks of
    :data:`BLOCK_ROWS`, so the working copies stay small whatever the number of rows.
    """
    require_same_shape(y_true, y_pred, "multi-class-log-loss")
    onehot, probabilities = y_true.floats(), y_pred.floats()
    rows = len(onehot)
    total = 0.0
    for start in range(0, rows, BLOCK_ROWS):
        truth = onehot[start : start + BLOCK_ROWS]
        if not np.all((truth >= 0.0) & (truth <= 1.0)) or not np.allclose(truth.sum(axis=1), 1.0):
            raise GraderError(
                "multi-class-log-loss: answers must be one-hot rows (one column per class, "
                "values in [0, 1] summing to 1)"
            )
        # One working copy of the block, updated in place: clip, rescale rows, take logs.
        block = np.clip(
            probabilities[start : start + BLOCK_ROWS], LOG_LOSS_EPSILON, 1.0 - LOG_LOSS_EPSILON
        )
        block /= block.sum(axis=1, keepdims=True)
        np.log(block, out=block)
        total += float(np.einsum("ij,ij->", truth, block))
    return -total / rows


DECLARATIONS = (
    Metric(
        name="roc-auc",
        perfect=1.0,
        lower_is_better=False,
        value_kind="real",
        rows_sum_to_one=False,
        compute=roc_auc,
        description="area under the ROC curve of one score column against 0/1 answers",
        arity="one",
    ),
    Metric(
        name="mean-column-roc-auc",
        perfect=1.0,
        lower_is_better=False,
        value_kind="real",
        rows_sum_to_one=False,
        compute=mean_column_roc_auc,
        description="mean over target columns of each column's ROC AUC",
    ),
    Metric(
        name="log-loss",
        perfect=0.0,
        lower_is_better=True,
        value_kind="probability",
        rows_sum_to_one=False,
        compute=log_loss,
        description="binary cross-entropy of one probability column, clipped at 1e-15",
        arity="one",
    ),
    Metric(
        name="multi-class-log-loss",
        perfect=0.0,
        lower_is_better=True,
        value_kind="probability",
        rows_sum_to_one=True,
        compute=multi_class_log_loss,
        description="cross-entropy of class probabilities against one-hot answers",
    ),
)
