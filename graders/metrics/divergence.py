"""The Kullback-Leibler divergence of predicted class distributions (hms-harmful-brain-activity).

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


DECLARATIONS = (
    Metric(
        name="kl-divergence",
        lower_is_better=True,
        value_kind="probability",
        rows_sum_to_one=True,
        compute=kl_divergence,
        description="mean KL divergence of predicted distributions from vote shares",
    ),
)
