"""Metrics over real-valued predictions: RMSE, MAE, RMSLE and variants, SMAPE.

Metrics without ``mean-column`` in their name score all target cells as one flat list; the
``mean-column`` variants score each column on its own and average.
"""

from __future__ import annotations

import numpy as np

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Columns, FloatArray, Metric, require_same_shape


def rmse(y_true: Columns, y_pred: Columns) -> float:
    """Root mean squared error: ``sqrt(mean((p − t)²))``."""
    truth, pred = _pair(y_true, y_pred, "rmse")
    return float(np.sqrt(np.mean((pred - truth) ** 2)))


def mae(y_true: Columns, y_pred: Columns) -> float:
    """Mean absolute error: ``mean(|p − t|)``."""
    truth, pred = _pair(y_true, y_pred, "mae")
    return float(np.mean(np.abs(pred - truth)))


def rmsle(y_true: Columns, y_pred: Columns) -> float:
    """Root mean squared logarithmic error: ``sqrt(mean((log(1 + p) − log(1 + t))²))``."""
    truth, pred = _pair(y_true, y_pred, "rmsle")
    return _rmsle(truth, pred)


def mean_column_rmsle(y_true: Columns, y_pred: Columns) -> float:
    """Mean over target columns of each column's RMSLE."""
    truth, pred = _pair(y_true, y_pred, "mean-column-rmsle")
    return float(np.mean([_rmsle(truth[:, j], pred[:, j]) for j in range(truth.shape[1])]))


def _rmsle(truth: FloatArray, pred: FloatArray) -> float:
    if np.any(truth < 0):
        raise GraderError("rmsle: answers must be >= 0")
    return float(np.sqrt(np.mean((np.log1p(pred) - np.log1p(truth)) ** 2)))


def rmse_log(y_true: Columns, y_pred: Columns) -> float:
    """RMSE between logarithms: ``sqrt(mean((log p − log t)²))`` (Kaggle House Prices)."""
    truth, pred = _pair(y_true, y_pred, "rmse-log")
    if np.any(truth <= 0):
        raise GraderError("rmse-log: answers must be > 0")
    return float(np.sqrt(np.mean((np.log(pred) - np.log(truth)) ** 2)))


def smape(y_true: Columns, y_pred: Columns) -> float:
    """Symmetric mean absolute percentage error in percent, 0 to 200.

    ``mean(200 · |p − t| / (|t| + |p|))`` where a term with ``t = p = 0`` counts as 0, as in
    Kaggle's Web Traffic Time Series Forecasting.
    """
    truth, pred = _pair(y_true, y_pred, "smape")
    denominator = np.abs(truth) + np.abs(pred)
    safe = np.where(denominator == 0.0, 1.0, denominator)
    return float(np.mean(200.0 * np.abs(pred - truth) / safe))


def _pair(y_true: Columns, y_pred: Columns, metric: str) -> tuple[FloatArray, FloatArray]:
    require_same_shape(y_true, y_pred, metric)
    return y_true.floats(), y_pred.floats()


DECLARATIONS = (
    Metric(
        name="rmse",
        perfect=0.0,
        lower_is_better=True,
        value_kind="real",
        rows_sum_to_one=False,
        compute=rmse,
        description="root mean squared error",
    ),
    Metric(
        name="mae",
        perfect=0.0,
        lower_is_better=True,
        value_kind="real",
        rows_sum_to_one=False,
        compute=mae,
        description="mean absolute error",
    ),
    Metric(
        name="rmsle",
        perfect=0.0,
        lower_is_better=True,
        value_kind="nonnegative",
        rows_sum_to_one=False,
        compute=rmsle,
        description="root mean squared error of log(1 + x)",
    ),
    Metric(
        name="mean-column-rmsle",
        perfect=0.0,
        lower_is_better=True,
        value_kind="nonnegative",
        rows_sum_to_one=False,
        compute=mean_column_rmsle,
        description="mean over target columns of each column's RMSLE",
    ),
    Metric(
        name="rmse-log",
        perfect=0.0,
        lower_is_better=True,
        value_kind="positive",
        rows_sum_to_one=False,
        compute=rmse_log,
        description="RMSE between log(prediction) and log(answer)",
    ),
    Metric(
        name="smape",
        perfect=0.0,
        lower_is_better=True,
        value_kind="real",
        rows_sum_to_one=False,
        compute=smape,
        description="symmetric mean absolute percentage error, 0 to 200",
    ),
)
