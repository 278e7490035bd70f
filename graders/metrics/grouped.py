"""Metrics over groups of rows named by the answers: the mean log-MAE over groups (champs).

The answers' last column names each row's group (arity ``grouped``); the submission never
carries it. champs-scalar-coupling groups its couplings by ``type`` (``1JHC``, ``3JHN``, …).
"""

from __future__ import annotations

import numpy as np

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Columns, Metric

LOG_MAE_FLOOR = 1e-9
"""A group's MAE below this counts as this, so a perfect group scores log(1e-9), not −∞."""


def group_log_mae(y_true: Columns, y_pred: Columns, floor: float = LOG_MAE_FLOOR) -> float:
    """Mean over groups of ``log(max(MAE of the group, floor))``; lower is better.

    Every group weighs the same, however many rows it has. ``floor`` (default 1e-9, as the
    competition's published metric code) bounds a perfect group; it must be a positive number.
    """
    metric = "group-log-mae"
    if not (isinstance(floor, int | float) and not isinstance(floor, bool) and floor > 0):
        raise GraderError(f"{metric}: floor must be a positive number, got {floor!r}")
    if y_true.shape != (y_pred.rows, 2) or y_pred.shape[1] != 1 or y_pred.rows == 0:
        raise GraderError(
            f"{metric}: needs one prediction column against an answer column and a group "
            f"column; got shapes {y_pred.shape} and {y_true.shape}"
        )
    _, group = np.unique(np.asarray(y_true.values(1), dtype=str), return_inverse=True)
    errors = np.abs(y_pred.float_column(0) - y_true.float_column(0))
    sums = np.bincount(group, weights=errors)
    sizes = np.bincount(group)
    return float(np.mean(np.log(np.maximum(sums / sizes, float(floor)))))


DECLARATIONS = (
    Metric(
        name="group-log-mae",
        lower_is_better=True,
        value_kind="real",
        rows_sum_to_one=False,
        compute=group_log_mae,
        description="mean over answer groups of log(MAE of the group), floored at 1e-9",
        arity="grouped",
        parameters=("floor",),
    ),
)
