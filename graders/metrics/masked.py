"""Metrics scored on flagged rows only: masked MAE, masked MCRMSE, the Laplace log-likelihood.

The answers' last column is a 0/1 flag (arity ``masked`` or ``uncertain``): a row with flag 1 is
scored, a row with flag 0 is predicted by the submission (every test id must be there) but left
out of the score. Kaggle scores these competitions this way: ventilator-pressure-prediction
only the inspiratory phase (``u_out == 0``), stanford-covid-vaccine only the first
``seq_scored`` bases, osic-pulmonary-fibrosis-progression only each patient's last three
measured weeks.
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import (
    Columns,
    FloatArray,
    Metric,
    require_scored_flags,
)

LAPLACE_SIGMA_FLOOR = 70.0
"""osic: an uncertainty below 70 ml counts as 70."""
LAPLACE_ERROR_CAP = 1000.0
"""osic: an error above 1,000 ml counts as 1,000."""


def masked_mae(y_true: Columns, y_pred: Columns) -> float:
    """Mean absolute error over the flagged rows: ``mean(|p − t|)`` where the flag is 1."""
    truth, pred, scored = _flagged(y_true, y_pred, "masked-mae")
    return float(np.mean(np.abs(pred[scored] - truth[scored])))


def masked_mcrmse(y_true: Columns, y_pred: Columns) -> float:
    """Mean over target columns of each column's RMSE over the flagged rows."""
    truth, pred, scored = _flagged(y_true, y_pred, "masked-mcrmse")
    errors = pred[scored] - truth[scored]
    return float(np.mean(np.sqrt(np.mean(errors**2, axis=0))))


def laplace_log_likelihood(y_true: Columns, y_pred: Columns) -> float:
    """osic's modified Laplace log-likelihood over the flagged rows (higher is better).

    With ``σ = max(uncertainty, 70)`` and ``Δ = min(|p − t|, 1000)``, each scored row scores
    ``−√2·Δ/σ − ln(√2·σ)``; the result is their mean. Target columns: value, then uncertainty;
    answer columns: value, then the flag.
    """
    metric = "laplace-log-likelihood"
    if y_pred.shape[1] != 2 or y_true.shape != y_pred.shape:
        raise GraderError(
            f"{metric}: needs predictions (value, uncertainty) and answers (value, flag); "
            f"got shapes {y_pred.shape} and {y_true.shape}"
        )
    scored = require_scored_flags(y_true, metric)
    truth = y_true.float_column(0)[scored]
    value, spread = y_pred.float_column(0)[scored], y_pred.float_column(1)[scored]
    sigma = np.maximum(spread, LAPLACE_SIGMA_FLOOR)
    delta = np.minimum(np.abs(value - truth), LAPLACE_ERROR_CAP)
    root2 = math.sqrt(2.0)
    return float(np.mean(-root2 * delta / sigma - np.log(root2 * sigma)))


def _flagged(
    y_true: Columns, y_pred: Columns, metric: str
) -> tuple[FloatArray, FloatArray, npt.NDArray[np.bool_]]:
    """Answer values, predictions (rows by columns) and the scored rows, checked."""
    targets = y_pred.shape[1]
    if y_true.shape != (y_pred.rows, targets + 1) or y_pred.rows == 0:
        raise GraderError(
            f"{metric}: answers need the {targets} target column(s) and a flag column; "
            f"got shapes {y_true.shape} and {y_pred.shape}"
        )
    scored = require_scored_flags(y_true, metric)
    truth = np.column_stack([y_true.float_column(j) for j in range(targets)])
    return truth, y_pred.floats(), scored


DECLARATIONS = (
    Metric(
        name="masked-mae",
        lower_is_better=True,
        value_kind="real",
        rows_sum_to_one=False,
        compute=masked_mae,
        description="mean absolute error over the rows the answers flag as scored",
        arity="masked",
    ),
    Metric(
        name="masked-mcrmse",
        lower_is_better=True,
        value_kind="real",
        rows_sum_to_one=False,
        compute=masked_mcrmse,
        description="mean over target columns of the RMSE over the rows flagged as scored",
        arity="masked",
    ),
    Metric(
        name="laplace-log-likelihood",
        lower_is_better=False,
        value_kind="real",
        rows_sum_to_one=False,
        compute=laplace_log_likelihood,
        description="mean Laplace log-likelihood of (value, uncertainty) on flagged rows",
        arity="uncertain",
    ),
)
