"""The Kullback-Leibler divergence of predicted class distributions (hms-harmful-brain-activity).

``kl-divergence`` is the competition's metric on one answer row per EEG; ``window-kl-divergence``
is the number the original MLE-bench gives when every labelled window is its own answer row and
the EEG's one prediction is repeated for each (its grader's form), computed from a per-EEG
summary of the windows.

Each answer row is a vote count (or share) per class; it is divided by its row's sum, so the
answer is the experts' vote distribution. Each prediction row is a probability distribution
(validation checks that rows sum to 1), clipped to ``[1e-15, 1 − 1e-15]`` as Kaggle's metric
does. The score is the mean over rows of ``Σ_c y_c · log(y_c / p_c)``, a class with no votes
adding 0.
"""

from __future__ import annotations

import numpy as np

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Columns, Metric, require_same_shape

EPSILON = 1e-15
"""Predictions are clipped to [ε, 1 − ε] before the logarithm, as Kaggle's metric does."""


def kl_divergence(y_true: Columns, y_pred: Columns) -> float:
    """Mean over rows of KL(votes / Σ votes ‖ prediction); lower is better, 0 is perfect."""
    metric = "kl-divergence"
    require_same_shape(y_true, y_pred, metric)
    votes = y_true.floats()
    if np.any(votes < 0):
        raise GraderError(f"{metric}: answer votes must be >= 0")
    totals = votes.sum(axis=1)
    if np.any(totals <= 0):
        row = int(np.flatnonzero(totals <= 0)[0])
        raise GraderError(f"{metric}: answer row {row} has no votes")
    shares = votes / totals[:, None]
    predicted = np.clip(y_pred.floats(), EPSILON, 1 - EPSILON)
    voted = shares > 0
    terms = np.zeros_like(shares)
    terms[voted] = shares[voted] * np.log(shares[voted] / predicted[voted])
    return float(np.mean(terms.sum(axis=1)))


def window_kl_divergence(y_true: Columns, y_pred: Columns) -> float:
    """Mean over labelled windows of KL(window's vote shares ‖ its EEG's prediction).

    Arity ``windowed``: per EEG, the answer columns are the mean over its windows of each class's
    vote share ``ȳ_c``, then the mean over its windows of ``Σ_c y_c·log y_c`` (``A``), then the
    number of windows ``n``. As ``Σ_w Σ_c y_wc·log(y_wc / p_c) = n·(A − Σ_c ȳ_c·log p_c)``
    (terms with ``y = 0`` adding 0 on both sides), the score is
    ``Σ_e n_e·(A_e − Σ_c ȳ_ec·log p_ec) / Σ_e n_e``, ``p`` clipped to ``[1e-15, 1 − 1e-15]``.
    """
    metric = "window-kl-divergence"
    classes = y_pred.shape[1]
    if y_true.shape != (y_pred.rows, classes + 2) or y_pred.rows == 0:
        raise GraderError(
            f"{metric}: needs the class columns, a constant and a window count per row; got "
            f"shapes {y_pred.shape} and {y_true.shape}"
        )
    answers = y_true.floats()
    shares, constant, windows = answers[:, :classes], answers[:, classes], answers[:, classes + 1]
    if np.any(windows < 1) or np.any(shares < 0):
        raise GraderError(f"{metric}: window counts must be >= 1 and shares >= 0")
    predicted = np.clip(y_pred.floats(), EPSILON, 1 - EPSILON)
    cross = np.where(shares > 0, shares * np.log(predicted), 0.0).sum(axis=1)
    return float(np.sum(windows * (constant - cross)) / np.sum(windows))


DECLARATIONS = (
    Metric(
        name="kl-divergence",
        lower_is_better=True,
        value_kind="probability",
        rows_sum_to_one=True,
        compute=kl_divergence,
        description="mean KL divergence of predicted distributions from vote shares",
    ),
    Metric(
        name="window-kl-divergence",
        lower_is_better=True,
        value_kind="probability",
        rows_sum_to_one=True,
        compute=window_kl_divergence,
        description="KL divergence averaged over labelled windows, one prediction per EEG",
        arity="windowed",
    ),
)
