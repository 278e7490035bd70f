"""Dice coefficients of run-length encoded masks, measured on run intervals.

:func:`global_dice` is the contrails competition's metric: one Dice over every pixel of every
image, ``2 · Σ |A ∩ B| / (Σ |A| + Σ |B|)``, so a large mask weighs more than a small one and an
image empty on both sides adds nothing. Masks are column-major, 1-based ``start length`` runs
(:mod:`graders.rle`); an empty cell, ``-`` or a missing value is an empty mask. Overlaps come
from the runs' end points, never from decoded pixels.

:func:`mean_dice` is HuBMAP's: the mean over images of each image's Dice, 1 when both masks are
empty. Its images differ in size, so the answers carry each image's width and height (arity
``described``: the mask, then ``width_pixels``, then ``height_pixels``), which bound its runs; a
10⁹-pixel kidney slide with thousands of glomeruli is a few thousand runs.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Columns, Metric, require_same_shape
from pytest_mlebench.graders.metrics.iou_sweep import first_invalid_mask
from pytest_mlebench.graders.rle import RleError, Runs, intersection_area, parse_runs

CONTRAILS_PIXELS = 256 * 256
"""Every contrails image (one GOES-16 crop) is 256 x 256 pixels."""


def global_dice(y_true: Columns, y_pred: Columns, pixels: int) -> float:
    """Dice over the pixels of all images together; the answers must hold some mask."""
    overlap = true_area = predicted_area = 0
    for truth, prediction in mask_pairs(y_true, y_pred, pixels, "global-dice"):
        overlap += intersection_area(truth, prediction)
        true_area += truth.area
        predicted_area += prediction.area
    if true_area == 0:
        raise GraderError("global-dice: the answers hold no mask pixel at all")
    return 2.0 * overlap / (true_area + predicted_area)


def mean_dice(y_true: Columns, y_pred: Columns) -> float:
    """The mean over images of ``2·|A ∩ B| / (|A| + |B|)``, 1 for an image empty on both sides."""
    sizes = image_pixels(y_true)
    total = 0.0
    for row, (truth, prediction) in enumerate(zip(y_true.values(0), y_pred.values(0), strict=True)):
        answer = _answer(truth, int(sizes[row]), row, "mean-dice")
        predicted = parse_runs(prediction, int(sizes[row]))
        denominator = answer.area + predicted.area
        total += 2.0 * intersection_area(answer, predicted) / denominator if denominator else 1.0
    return total / y_true.rows


def image_pixels(y_true: Columns, metric: str = "mean-dice") -> list[int]:
    """Each row's pixel count from its ``width, height`` answer columns (after the mask)."""
    if len(y_true.arrays) != 3:
        raise GraderError(f"{metric}: the answers need the mask, width and height columns")
    try:
        widths, heights = (y_true.float_column(1), y_true.float_column(2))
    except ValueError:
        raise GraderError(f"{metric}: image widths and heights must be numbers") from None
    if not ((widths >= 1) & (heights >= 1)).all():
        raise GraderError(f"{metric}: every image needs a width and a height of at least 1")
    return [int(w) * int(h) for w, h in zip(widths, heights, strict=True)]


def mean_f_half(y_true: Columns, y_pred: Columns) -> float:
    """Vesuvius' metric: the mean over fragments of the pixel F0.5 of the predicted ink.

    ``F0.5 = 1.25·TP / (1.25·TP + 0.25·FN + FP)``: precision weighs four times recall. An empty
    prediction scores 0; a fragment without ink in the answers cannot be scored.
    """
    sizes = image_pixels(y_true, "mean-f0.5")
    total = 0.0
    for row, (truth, prediction) in enumerate(zip(y_true.values(0), y_pred.values(0), strict=True)):
        answer = _answer(truth, sizes[row], row, "mean-f0.5")
        if answer.empty:
            raise GraderError(f"mean-f0.5: answer row {row} has no ink")
        predicted = parse_runs(prediction, sizes[row])
        hits = intersection_area(answer, predicted)
        missed, wrong = answer.area - hits, predicted.area - hits
        total += 1.25 * hits / (1.25 * hits + 0.25 * missed + wrong)
    return total / y_true.rows


def _hubmap_rule(y_true: Columns, y_pred: Columns) -> tuple[int, str] | None:
    sizes = image_pixels(y_true)
    cells = y_pred.values(0)
    for row, pixels in enumerate(sizes):
        found = first_invalid_mask(cells[row : row + 1], pixels)
        if found is not None:
            return row, found[1]
    return None


def _answer(cell: object, pixels: int, row: int, metric: str) -> Runs:
    try:
        return parse_runs(cell, pixels)
    except RleError as error:
        raise GraderError(f"{metric}: answer row {row} is not a valid mask: {error}") from None


def mask_pairs(
    y_true: Columns, y_pred: Columns, pixels: int, metric: str
) -> list[tuple[Runs, Runs]]:
    """Each row's answer and predicted runs; a broken answer is the competition's fault."""
    require_same_shape(y_true, y_pred, metric)
    return [
        (_answer(truth, pixels, row, metric), parse_runs(prediction, pixels))
        for row, (truth, prediction) in enumerate(
            zip(y_true.values(0), y_pred.values(0), strict=True)
        )
    ]


def _contrails_rule(y_true: Columns, y_pred: Columns) -> tuple[int, str] | None:
    return first_invalid_mask(y_pred.values(0), CONTRAILS_PIXELS)


def _bound(compute: Callable[..., float], pixels: int) -> Callable[[Columns, Columns], float]:
    return partial(compute, pixels=pixels)


DECLARATIONS = (
    Metric(
        name="contrails-global-dice",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=_bound(global_dice, CONTRAILS_PIXELS),
        description=(
            "Dice over all pixels of all 256 x 256 images of run-length encoded masks "
            "(column-major; '-' or empty: no mask)"
        ),
        check_rows=_contrails_rule,
    ),
    Metric(
        name="mean-dice",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=mean_dice,
        description=(
            "mean over images of the Dice of run-length encoded masks (column-major; 1 when "
            "both are empty); answers: mask, width_pixels, height_pixels"
        ),
        arity="described",
        check_rows=_hubmap_rule,
    ),
    Metric(
        name="mean-f0.5",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=mean_f_half,
        description=(
            "mean over images of the pixel F0.5 of run-length encoded masks; answers: mask, "
            "width, height"
        ),
        arity="described",
        check_rows=_hubmap_rule,
    ),
)
