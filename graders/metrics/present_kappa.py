"""The original MLE-bench's quadratic kappa: weights by a rating's index among the labels present.

The original grades its kappa competitions (aptos2019-blindness-detection,
learning-agency-lab-automated-essay-scoring-2) with scikit-learn's ``cohen_kappa_score(...,
weights="quadratic")`` and no ``labels``: the scale is the sorted set of ratings that occur in
either file, and two ratings are ``(i − j)²`` apart by their positions in it, not by their
values. Kaggle's scale is fixed, which :func:`~pytest_mlebench.graders.metrics.classification.
quadratic_weighted_kappa` follows (distance by value). The two agree when every rating of the
scale occurs and no prediction lies outside it; a prediction of 8 on a 1–6 scale is 1 step from 6
there and 2 here, and a grade absent from both files shortens every distance across it there.
"""

from __future__ import annotations

import numpy as np

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Columns, Metric, require_same_shape
from pytest_mlebench.graders.metrics.classification import quadratic_weighted_kappa

NAME = "present-label-kappa"


def present_label_kappa(y_true: Columns, y_pred: Columns) -> float:
    """Quadratic kappa of the ratings' positions in the sorted union of the ratings present."""
    require_same_shape(y_true, y_pred, NAME)
    truth = y_true.float_column()
    pred = y_pred.float_column()
    if not np.all(np.isfinite(truth) & (truth == np.round(truth))):
        raise GraderError(f"{NAME}: answers must be whole numbers")
    labels = np.unique(np.concatenate([truth, pred]))
    true_positions = np.searchsorted(labels, truth).astype(np.float64)
    predicted_positions = np.searchsorted(labels, pred).astype(np.float64)
    return quadratic_weighted_kappa(
        Columns.of({"rating": true_positions}), Columns.of({"rating": predicted_positions})
    )


DECLARATIONS = (
    Metric(
        name=NAME,
        lower_is_better=False,
        value_kind="integer-label",
        rows_sum_to_one=False,
        compute=present_label_kappa,
        description="quadratic kappa of rating positions among those present (the original's)",
        arity="one",
    ),
)
"""The original MLE-bench's variant (``original_grader:`` of aptos2019 and essay-scoring-2)."""
