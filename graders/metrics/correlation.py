"""Correlation metrics: Pearson's r of one column, and the mean column-wise Spearman ρ.

A correlation is undefined when either side does not vary. Constant answers are the
competition's fault (:class:`~graders.errors.GraderError`); constant predictions are the
submission's, and :func:`require_varying_predictions` rejects them during validation with a
reason, so the sandbox validator and grading agree and no NaN ever reaches a score.
"""

from __future__ import annotations

import numpy as np

from pytest_mlebench.graders.errors import GraderError, SubmissionRejected
from pytest_mlebench.graders.messages import show_value
from pytest_mlebench.graders.metrics.base import Columns, FloatArray, Metric, require_same_shape


def pearson(y_true: Columns, y_pred: Columns) -> float:
    """Pearson's correlation coefficient ``r`` of the predictions with the answers.

    ``r = Σ (p − p̄)(t − t̄) / sqrt(Σ (p − p̄)² · Σ (t − t̄)²)``, from centred values (so a large
    common offset costs no precision), clipped to [−1, 1] against rounding; the same number as
    ``scipy.stats.pearsonr``.
    """
    require_same_shape(y_true, y_pred, "pearson")
    truth = _centred(y_true.float_column())
    if not truth.any():
        raise GraderError(f"pearson: answer column {y_true.names[0]!r} is constant")
    pred = _centred(y_pred.float_column())
    spread = float(np.sqrt(np.dot(truth, truth) * np.dot(pred, pred)))
    if spread == 0.0:  # validation rejects constant predictions; a direct caller gets NaN
        return float("nan")
    return float(np.clip(np.dot(truth, pred) / spread, -1.0, 1.0))


def _centred(values: FloatArray) -> FloatArray:
    centred: FloatArray = values - values.mean()
    return centred


def require_varying_predictions(y_pred: Columns) -> None:
    """Reject predictions that are all the same number: their correlation is undefined.

    Raises:
        SubmissionRejected: Every value of a target column is equal.
    """
    for position, name in enumerate(y_pred.names):
        column = y_pred.float_column(position)
        if column.size and float(column.max()) == float(column.min()):
            raise SubmissionRejected(
                f"column {show_value(name)} holds the same value ({column[0]:g}) in every row: "
                "a correlation with constant predictions is undefined (NaN); submit predictions "
                "that vary from row to row"
            )


def mean_column_spearman(y_true: Columns, y_pred: Columns) -> float:
    """Mean over target columns of Spearman's rank correlation ``ρ`` with the answer column.

    ``ρ`` of one column is Pearson's ``r`` of the two sides' ranks, tied values sharing the
    mean of their ranks — the number of ``scipy.stats.spearmanr``. A column of constant answers
    has no correlation and raises :class:`~graders.errors.GraderError` (the competition must hold
    out rows where every target varies); constant predictions are rejected by validation.
    """
    require_same_shape(y_true, y_pred, "mean-column-spearman")
    total = 0.0
    for position, name in enumerate(y_true.names):
        truth = _centred(average_ranks(y_true.float_column(position)))
        if not truth.any():
            raise GraderError(f"mean-column-spearman: answer column {name!r} is constant")
        pred = _centred(average_ranks(y_pred.float_column(position)))
        spread = float(np.sqrt(np.dot(truth, truth) * np.dot(pred, pred)))
        if spread == 0.0:  # validation rejects constant predictions; a direct caller gets NaN
            return float("nan")
        total += float(np.clip(np.dot(truth, pred) / spread, -1.0, 1.0))
    return total / len(y_true.names)


def average_ranks(values: FloatArray) -> FloatArray:
    """Ranks 1…n of ``values``, ties sharing the mean of the ranks they span."""
    order = np.argsort(values, kind="stable")
    ordered = values[order]
    starts = np.flatnonzero(np.concatenate(([True], ordered[1:] != ordered[:-1])))
    ends = np.concatenate((starts[1:], [values.size]))
    # A run of ties over sorted positions s … e−1 takes the mean of ranks s+1 … e.
    per_run = (starts + ends + 1) / 2.0
    ranks = np.empty(values.size, dtype=np.float64)
    ranks[order] = np.repeat(per_run, ends - starts)
    return ranks


DECLARATIONS = (
    Metric(
        name="pearson",
        perfect=1.0,
        lower_is_better=False,
        value_kind="real",
        rows_sum_to_one=False,
        compute=pearson,
        description="Pearson correlation of one prediction column with the answers",
        arity="one",
        check_predictions=require_varying_predictions,
    ),
    Metric(
        name="mean-column-spearman",
        perfect=1.0,
        lower_is_better=False,
        value_kind="real",
        rows_sum_to_one=False,
        compute=mean_column_spearman,
        description="mean over target columns of Spearman's rank correlation with the answers",
        check_predictions=require_varying_predictions,
    ),
)
