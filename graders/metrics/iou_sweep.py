"""TGS Salt's metric: the mean over images of the precision at IoU thresholds 0.50, 0.55 … 0.95.

Each image holds at most one object, its run-length encoded mask (column-major, 1-based, see
:mod:`graders.rle`) of a 101 x 101 image. At a threshold ``t`` an image scores 1 when both masks
are empty, or when both are not and their IoU is above ``t``; otherwise 0 (a predicted mask on an
empty image is a false positive, an empty prediction on salt a false negative). An image's score
is the mean over the ten thresholds; the metric is the mean over images. IoU comes from the run
intervals, never from pixels, and ``IoU > t`` is decided in integers (``100 · overlap > (50 + 5k) ·
union``), so an IoU of exactly 0.6 does not pass 0.6.

:func:`histogram_iou_sweep` is the original MLE-bench's number: its IoU is built from
``numpy.histogram`` bins over the pixel values, and an all-empty prediction has one value only,
so its single bin counts as foreground: against salt covering a share ``c`` of the image it gets
IoU ``c`` instead of 0 (``c = 0.8``: image score 0.6 instead of 0).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

import numpy as np

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.messages import show_value
from pytest_mlebench.graders.metrics.base import Array, Columns, Metric, require_same_shape
from pytest_mlebench.graders.rle import RleError, Runs, intersection_area, parse_runs

SALT_PIXELS = 101 * 101
"""Every TGS image is 101 x 101 pixels."""

THRESHOLD_PERCENTS = tuple(range(50, 100, 5))
"""The IoU thresholds 0.50 … 0.95, in hundredths."""

ORIGINAL_THRESHOLDS = np.arange(0.5, 1.0, 0.05)
"""The original's float thresholds (``numpy.arange``; 0.6 is 0.6000000000000001 there)."""


def iou_sweep(y_true: Columns, y_pred: Columns, pixels: int) -> float:
    """Kaggle's mean over images of the precision at the ten IoU thresholds."""
    total = 0.0
    for truth, prediction in _pairs(y_true, y_pred, pixels):
        if truth.empty or prediction.empty:
            total += float(truth.empty and prediction.empty)
            continue
        overlap = intersection_area(truth, prediction)
        union = truth.area + prediction.area - overlap
        passed = sum(100 * overlap > percent * union for percent in THRESHOLD_PERCENTS)
        total += passed / len(THRESHOLD_PERCENTS)
    return total / y_true.rows


def histogram_iou_sweep(y_true: Columns, y_pred: Columns, pixels: int) -> float:
    """The original MLE-bench's number: as :func:`iou_sweep`, but an empty prediction against a
    non-empty mask gets the mask's share of the image as its IoU."""
    total = 0.0
    for truth, prediction in _pairs(y_true, y_pred, pixels):
        if truth.empty:
            total += float(prediction.empty)
            continue
        if prediction.empty:
            iou = truth.area / pixels
        else:
            overlap = intersection_area(truth, prediction)
            iou = overlap / (truth.area + prediction.area - overlap)
        total += float(np.mean(iou > ORIGINAL_THRESHOLDS))
    return total / y_true.rows


def salt_rule(y_true: Columns, y_pred: Columns) -> tuple[int, str] | None:
    """The first prediction that is not a valid mask of a 101 x 101 image."""
    return first_invalid_mask(y_pred.values(0), SALT_PIXELS)


def first_invalid_mask(cells: Array, pixels: int) -> tuple[int, str] | None:
    """The position of the first cell that is not a run-length mask of ``pixels``, and why."""
    for row, cell in enumerate(cells):
        try:
            parse_runs(cell, pixels)
        except RleError as error:
            return row, (
                f"mask {show_value(str(cell))} is not a valid run-length encoding: {error}; "
                "write 'start length' pairs, 1-based, in increasing order, or leave it empty"
            )
    return None


def _pairs(y_true: Columns, y_pred: Columns, pixels: int) -> list[tuple[Runs, Runs]]:
    require_same_shape(y_true, y_pred, "iou-sweep")
    pairs = []
    for row, (truth, prediction) in enumerate(zip(y_true.values(0), y_pred.values(0), strict=True)):
        try:
            answer = parse_runs(truth, pixels)
        except RleError as error:
            raise GraderError(f"iou-sweep: answer row {row} is not a valid mask: {error}") from None
        pairs.append((answer, parse_runs(prediction, pixels)))
    return pairs


def _bound(compute: Callable[..., float]) -> Callable[[Columns, Columns], float]:
    return partial(compute, pixels=SALT_PIXELS)


DECLARATIONS = (
    Metric(
        name="salt-iou-sweep",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=_bound(iou_sweep),
        description=(
            "mean over 101 x 101 images of the precision at IoU 0.50 ... 0.95 of one "
            "run-length encoded mask (column-major)"
        ),
        check_rows=salt_rule,
    ),
    Metric(
        name="salt-iou-sweep-histogram",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=_bound(histogram_iou_sweep),
        description=(
            "the original MLE-bench's salt-iou-sweep: an empty prediction against salt gets "
            "the salt's share of the image as its IoU"
        ),
        check_rows=salt_rule,
    ),
)
