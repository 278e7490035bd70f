"""phone-percentile-distance (smartphone-decimeter-2022) against values worked out by hand.

On the equator a longitude error of δ degrees is ``R·δ·π/180`` metres, and on a meridian a
latitude error is the same: the haversine formula gives these exactly, so each case is a
percentile computation over known distances.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pytest_mlebench.graders import (
    Columns,
    GraderError,
    SubmissionSpec,
    get_metric,
    score_submission,
)
from pytest_mlebench.graders.metrics.haversine import EARTH_RADIUS_METRES, haversine_metres

METRIC = get_metric("phone-percentile-distance")
UNIT = EARTH_RADIUS_METRES * math.pi / 180 * 1e-5  # metres per 1e-5 degree on a great circle


def _columns(lat_true, lon_true, phones, lat_pred, lon_pred):
    return (
        Columns.of({"lat": lat_true, "lon": lon_true, "phone": phones}),
        Columns.of({"lat": lat_pred, "lon": lon_pred}),
    )


def test_the_mean_over_phones_of_the_mean_of_p50_and_p95() -> None:
    # phone a: errors 0, 1, 2, 4 units along the equator -> p50 = 1.5, p95 = 2 + 0.85·2 = 3.7
    # phone b: errors 0, 10 units along a meridian -> p50 = 5, p95 = 9.5
    y_true, y_pred = _columns(
        [0.0] * 6,
        [0.0] * 6,
        ["a", "a", "a", "a", "b", "b"],
        [0.0, 0.0, 0.0, 0.0, 0.0, 1e-4],
        [0.0, 1e-5, 2e-5, 4e-5, 0.0, 0.0],
    )
    expected = ((1.5 + 3.7) / 2 + (5 + 9.5) / 2) / 2 * UNIT
    assert METRIC.compute(y_true, y_pred) == pytest.approx(expected, rel=1e-9)
    assert expected == pytest.approx(5.4763, abs=1e-4)


def test_every_phone_weighs_the_same_however_many_epochs_it_has() -> None:
    many = ["a"] * 9 + ["b"]
    y_true, y_pred = _columns([0.0] * 10, [0.0] * 10, many, [0.0] * 10, [0.0] * 9 + [1e-5])
    assert METRIC.compute(y_true, y_pred) == pytest.approx(UNIT / 2, rel=1e-9)


def test_a_perfect_prediction_scores_zero_and_the_distance_is_symmetric() -> None:
    rng = np.random.default_rng(5)
    lat, lon = rng.uniform(-60, 60, 50), rng.uniform(-180, 180, 50)
    other_lat, other_lon = lat + rng.normal(0, 1e-3, 50), lon + rng.normal(0, 1e-3, 50)
    y_true, y_pred = _columns(lat, lon, ["p"] * 50, lat, lon)
    assert METRIC.compute(y_true, y_pred) == 0.0
    assert haversine_metres(lat, lon, other_lat, other_lon) == pytest.approx(
        haversine_metres(other_lat, other_lon, lat, lon), rel=1e-12
    )


def test_a_quarter_of_the_equator() -> None:
    distance = haversine_metres(np.array([0.0]), np.array([0.0]), np.array([0.0]), np.array([90.0]))
    assert distance[0] == pytest.approx(EARTH_RADIUS_METRES * math.pi / 2, rel=1e-12)


def test_answers_without_a_phone_column_or_with_a_bad_latitude_raise() -> None:
    with pytest.raises(GraderError, match="latitude, longitude, phone"):
        METRIC.compute(
            Columns.of({"lat": [0.0], "lon": [0.0]}), Columns.of({"a": [0.0], "b": [0.0]})
        )
    y_true, y_pred = _columns([91.0], [0.0], ["p"], [0.0], [0.0])
    with pytest.raises(GraderError, match="outside"):
        METRIC.compute(y_true, y_pred)


def test_a_predicted_latitude_beyond_the_pole_is_invalid_with_its_row(tmp_path: Path) -> None:
    spec = SubmissionSpec(
        id_column="tripId",
        key_columns=("UnixTimeMillis",),
        target_columns=("LatitudeDegrees", "LongitudeDegrees"),
        answer_columns=("LatitudeDegrees", "LongitudeDegrees", "phone"),
        metric="phone-percentile-distance",
    )
    answers = pd.DataFrame(
        {
            "tripId": ["d-p", "d-p"],
            "UnixTimeMillis": [1000, 2000],
            "LatitudeDegrees": [37.4, 37.5],
            "LongitudeDegrees": [-122.1, -122.1],
            "phone": ["d-p", "d-p"],
        }
    )
    answers.to_csv(tmp_path / "answers.csv", index=False)
    bad = answers.drop(columns=["phone"]).assign(LatitudeDegrees=[37.4, 137.5])
    bad.to_csv(tmp_path / "submission.csv", index=False)
    result = score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", spec)
    assert not result.valid
    assert result.reason == (
        "row id 'd-p 2000': LatitudeDegrees 137.5 is outside [-90, 90]; positions are WGS84 "
        "degrees (1 row in all)"
    )
