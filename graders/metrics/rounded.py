"""Metrics whose Kaggle leaderboard shows whole numbers: the MAE rounded to an integer.

predict-volcanic-eruptions-ingv-oe scores the MAE of a time to eruption (in hundredths of a
second, millions on the board) and its board lists integers; rounding the score the same way
lets a score be compared with the board exactly.
"""

from __future__ import annotations

import numpy as np

from pytest_mlebench.graders.metrics.base import Columns, Metric, require_same_shape


def rounded_mae(y_true: Columns, y_pred: Columns) -> float:
    """``mean(|p − t|)`` rounded to the nearest integer (a half to the even one)."""
    require_same_shape(y_true, y_pred, "mae-rounded")
    return float(np.rint(np.mean(np.abs(y_pred.floats() - y_true.floats()))))


DECLARATIONS = (
    Metric(
        name="mae-rounded",
        lower_is_better=True,
        value_kind="real",
        rows_sum_to_one=False,
        compute=rounded_mae,
        description="mean absolute error rounded to an integer",
    ),
)
