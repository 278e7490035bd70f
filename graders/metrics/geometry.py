"""Metrics over directions and positions: the mean angular error (icecube).

Angles are in radians. icecube-neutrinos-in-deep-ice asks for each event's direction as
``azimuth`` (0 to 2π) and ``zenith`` (0 to π); the score is the mean great-circle angle between
the predicted and the true direction.
"""

from __future__ import annotations

import numpy as np

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Columns, Metric, require_same_shape


def mean_angular_error(y_true: Columns, y_pred: Columns) -> float:
    """Mean angle (radians, 0 to π) between predicted and true directions.

    Columns: azimuth, then zenith. Each direction becomes a unit vector
    ``(cos az·sin zen, sin az·sin zen, cos zen)``; the angle is ``arccos`` of the two vectors'
    dot product, clipped to [−1, 1] against rounding. Any finite angles are accepted (they are
    periodic), as on Kaggle.
    """
    metric = "mean-angular-error"
    require_same_shape(y_true, y_pred, metric)
    if y_true.shape[1] != 2:
        raise GraderError(f"{metric}: needs two columns, azimuth then zenith")
    true_az, true_zen = y_true.float_column(0), y_true.float_column(1)
    pred_az, pred_zen = y_pred.float_column(0), y_pred.float_column(1)
    sines = np.sin(true_zen) * np.sin(pred_zen)
    product = sines * np.cos(true_az - pred_az) + np.cos(true_zen) * np.cos(pred_zen)
    return float(np.mean(np.arccos(np.clip(product, -1.0, 1.0))))


DECLARATIONS = (
    Metric(
        name="mean-angular-error",
        lower_is_better=True,
        value_kind="real",
        rows_sum_to_one=False,
        compute=mean_angular_error,
        description="mean great-circle angle between (azimuth, zenith) directions, radians",
    ),
)
