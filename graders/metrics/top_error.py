"""The top-1 classification error (inaturalist-2019-fgvc6): the share of wrong labels.

One predicted category per row, a whole number (``integer-label``); the score is the share of
rows whose prediction is not the answer, 0 for a perfect submission; lower is better.
"""

from __future__ import annotations

import numpy as np

from pytest_mlebench.graders.metrics.base import Columns, Metric, require_same_shape


def top1_error(y_true: Columns, y_pred: Columns) -> float:
    """``1 − accuracy`` of one label column; lower is better."""
    require_same_shape(y_true, y_pred, "top-1-error")
    wrong = np.count_nonzero(y_true.float_column() != y_pred.float_column())
    return wrong / y_true.rows


DECLARATIONS = (
    Metric(
        name="top-1-error",
        perfect=0.0,
        lower_is_better=True,
        value_kind="integer-label",
        rows_sum_to_one=False,
        compute=top1_error,
        description="share of rows whose one predicted whole-number label is wrong",
        arity="one",
    ),
)
