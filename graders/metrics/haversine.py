"""Positions on the Earth: the per-phone mean of the 50th and 95th percentile haversine error.

smartphone-decimeter-2022 asks for each phone's latitude and longitude (degrees, WGS84) at
every ground-truth epoch. Kaggle's evaluation: the horizontal (haversine) distance in metres
between the predicted and the true position at every epoch; per phone, the mean of the 50th
and the 95th percentile of those distances; the score is the mean over phones. The answers'
last column names each row's phone (arity ``grouped``), so every phone weighs the same however
many epochs it has.
"""

from __future__ import annotations

import numpy as np

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.messages import count
from pytest_mlebench.graders.metrics.base import Columns, FloatArray, Metric

EARTH_RADIUS_METRES = 6_371_000.0
"""The sphere the distance is measured on (the competition's published metric code)."""

PERCENTILES = (0.50, 0.95)
"""Quantiles averaged per phone, interpolated linearly between ranks (numpy's default)."""


def haversine_metres(
    lat_a: FloatArray, lon_a: FloatArray, lat_b: FloatArray, lon_b: FloatArray
) -> FloatArray:
    """Great-circle distance in metres between positions given in degrees.

    ``2·R·arcsin(√(sin²(Δφ/2) + cos φ₁·cos φ₂·sin²(Δλ/2)))`` with ``R`` =
    :data:`EARTH_RADIUS_METRES`; the term under the root is clipped to [0, 1] against rounding.
    """
    phi_a, phi_b = np.radians(lat_a), np.radians(lat_b)
    half_lat = np.sin((phi_b - phi_a) / 2.0)
    half_lon = np.sin(np.radians(lon_b - lon_a) / 2.0)
    term = half_lat**2 + np.cos(phi_a) * np.cos(phi_b) * half_lon**2
    distance: FloatArray = 2.0 * EARTH_RADIUS_METRES * np.arcsin(np.sqrt(np.clip(term, 0.0, 1.0)))
    return distance


def phone_percentile_distance(y_true: Columns, y_pred: Columns) -> float:
    """Mean over phones of ``(p50 + p95) / 2`` of the haversine errors in metres; lower is better.

    Target columns: latitude, then longitude (degrees); answer columns: latitude, longitude,
    then the phone (trip) of each row.
    """
    metric = "phone-percentile-distance"
    if y_pred.shape[1] != 2 or y_true.shape != (y_pred.rows, 3) or y_pred.rows == 0:
        raise GraderError(
            f"{metric}: needs predictions (latitude, longitude) and answers (latitude, "
            f"longitude, phone); got shapes {y_pred.shape} and {y_true.shape}"
        )
    _require_latitudes(y_true.float_column(0), metric)
    distance = haversine_metres(
        y_true.float_column(0),
        y_true.float_column(1),
        y_pred.float_column(0),
        y_pred.float_column(1),
    )
    _, phone = np.unique(np.asarray(y_true.values(2), dtype=str), return_inverse=True)
    order = np.argsort(phone, kind="stable")
    bounds = np.flatnonzero(np.diff(phone[order])) + 1
    per_phone = [
        float(np.mean(np.quantile(errors, PERCENTILES)))
        for errors in np.split(distance[order], bounds)
    ]
    return float(np.mean(per_phone))


def latitude_rule(y_true: Columns, y_pred: Columns) -> tuple[int, str] | None:
    """The first row whose predicted latitude lies outside [−90, 90] degrees, if any."""
    latitude = y_pred.float_column(0)
    outside = np.abs(latitude) > 90.0
    if not outside.any():
        return None
    first = int(np.argmax(outside))
    return first, (
        f"{y_pred.names[0]} {latitude[first]:g} is outside [-90, 90]; positions are WGS84 "
        f"degrees ({count(int(outside.sum()), 'row')} in all)"
    )


def _require_latitudes(latitude: FloatArray, metric: str) -> None:
    if (np.abs(latitude) > 90.0).any():
        raise GraderError(f"{metric}: an answer latitude lies outside [-90, 90] degrees")


DECLARATIONS = (
    Metric(
        name="phone-percentile-distance",
        lower_is_better=True,
        value_kind="real",
        rows_sum_to_one=False,
        compute=phone_percentile_distance,
        description="mean over phones of the mean of the p50 and p95 haversine error, metres",
        arity="grouped",
        check_rows=latitude_rule,
    ),
)
