"""The Matthews correlation coefficient of predicted labels (nfl-player-contact-detection).

The predictions are whole-number labels (``integer-label``: a probability such as 0.7 is
invalid, as Kaggle wants a 0/1 ``contact``). With two classes this is the usual
``(TP·TN − FP·FN) / sqrt((TP+FP)(TP+FN)(TN+FP)(TN+FN))``; with more it is Gorodkin's
multi-class form, which scikit-learn's ``matthews_corrcoef`` computes too.
"""

from __future__ import annotations

import math

import numpy as np

from pytest_mlebench.graders.metrics.base import Columns, Metric, require_same_shape


def matthews_correlation(y_true: Columns, y_pred: Columns) -> float:
    """MCC from the confusion counts; 0 when either side has a single class (no correlation).

    With ``s`` rows, ``c`` of them right, ``t_k`` true and ``p_k`` predicted rows of class
    ``k``: ``(c·s − Σ t_k·p_k) / sqrt((s² − Σ p_k²)·(s² − Σ t_k²))``.
    """
    require_same_shape(y_true, y_pred, "mcc")
    truth, pred = y_true.float_column(0), y_pred.float_column(0)
    _, codes = np.unique(np.concatenate([truth, pred]), return_inverse=True)
    true_codes, pred_codes = codes[: truth.size], codes[truth.size :]
    classes = int(codes.max()) + 1
    true_counts = np.bincount(true_codes, minlength=classes).astype(np.float64)
    pred_counts = np.bincount(pred_codes, minlength=classes).astype(np.float64)
    rows, right = float(truth.size), float(np.count_nonzero(true_codes == pred_codes))
    numerator = right * rows - float(true_counts @ pred_counts)
    spread = (rows**2 - float(pred_counts @ pred_counts)) * (
        rows**2 - float(true_counts @ true_counts)
    )
    return 0.0 if spread == 0.0 else numerator / math.sqrt(spread)


DECLARATIONS = (
    Metric(
        name="mcc",
        perfect=1.0,
        lower_is_better=False,
        value_kind="integer-label",
        rows_sum_to_one=False,
        compute=matthews_correlation,
        description="Matthews correlation coefficient of whole-number labels",
        arity="one",
    ),
)
