"""TGS Salt's IoU-sweep precision, Kaggle's and the original MLE-bench's, on hand-worked masks."""

from __future__ import annotations

import numpy as np
import pytest

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics import get_metric
from pytest_mlebench.graders.metrics.base import Columns
from pytest_mlebench.graders.metrics.iou_sweep import SALT_PIXELS

KAGGLE = get_metric("salt-iou-sweep")
ORIGINAL = get_metric("salt-iou-sweep-histogram")


def columns(*masks: object) -> Columns:
    return Columns.of({"rle_mask": np.array(masks, dtype=object)})


@pytest.mark.parametrize(
    ("truth", "prediction", "kaggle", "original"),
    [
        ("", "", 1.0, 1.0),  # nothing to find, nothing predicted
        ("", "-", 1.0, 1.0),
        ("", "1 5", 0.0, 0.0),  # a false positive on an empty image
        ("1 100", "1 100", 1.0, 1.0),
        # IoU 0.6 exactly (60 of 100): passes 0.50 and 0.55 only
        ("1 100", "1 60", 0.2, 0.2),
        # IoU 0.61: passes 0.50, 0.55, 0.60
        ("1 100", "1 61", 0.3, 0.3),
        ("1 100", "201 50", 0.0, 0.0),  # no overlap
    ],
)
def test_one_image(truth: str, prediction: str, kaggle: float, original: float) -> None:
    assert KAGGLE.compute(columns(truth), columns(prediction)) == pytest.approx(kaggle)
    assert ORIGINAL.compute(columns(truth), columns(prediction)) == pytest.approx(original)


def test_an_empty_prediction_on_salt_scores_zero_but_the_original_gives_it_the_coverage() -> None:
    covered = int(SALT_PIXELS * 0.8)  # 8160 of 10201 pixels: coverage 0.7999
    truth, prediction = columns(f"1 {covered}"), columns("")
    assert KAGGLE.compute(truth, prediction) == 0.0
    # IoU 0.7999 passes 0.50 ... 0.75: six of ten thresholds
    assert ORIGINAL.compute(truth, prediction) == pytest.approx(0.6)


def test_the_mean_is_over_images() -> None:
    truth = columns("", "1 100", "1 100", "")
    prediction = columns("", "1 100", "1 60", "3 3")
    assert KAGGLE.compute(truth, prediction) == pytest.approx((1 + 1 + 0.2 + 0) / 4)


@pytest.mark.parametrize(
    ("mask", "reason"),
    [
        ("1 2 3", "3 numbers"),
        ("10200 5", "ends past the image's 10201 pixels"),
        ("5 5 7 1", "overlaps"),
        ("0 1", "below 1"),
    ],
)
def test_invalid_masks_are_named_by_row(mask: str, reason: str) -> None:
    assert KAGGLE.check_rows is not None
    found = KAGGLE.check_rows(columns("", ""), columns("1 1", mask))
    assert found is not None
    row, message = found
    assert row == 1
    assert reason in message


def test_valid_masks_pass_the_rule() -> None:
    assert KAGGLE.check_rows is not None
    assert KAGGLE.check_rows(columns("", ""), columns("", "1 10201")) is None


def test_a_broken_answer_is_the_competitions_fault() -> None:
    with pytest.raises(GraderError, match="answer row 0"):
        KAGGLE.compute(columns("1 2 3"), columns(""))
