"""Dice coefficients of run-length encoded masks, measured on run intervals.

:func:`global_dice` is the contrails competition's metric: one Dice over every pixel of every
image, ``2 · Σ |A ∩ B| / (Σ |A| + Σ |B|)``, so a large mask weighs more than a small one and an
image empty on both sides adds nothing. Masks are column-major, 1-based ``start length`` runs
(:mod:`graders.rle`); an empty cell, ``-`` or a missing value is an empty mask. Overlaps come
from the runs' end points, never from decoded pixels.
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


def mask_pairs(
    y_true: Columns, y_pred: Columns, pixels: int, metric: str
) -> list[tuple[Runs, Runs]]:
    """Each row's answer and predicted runs; a broken answer is the competition's fault."""
    require_same_shape(y_true, y_pred, metric)
    pairs = []
    for row, (truth, prediction) in enumerate(zip(y_true.arrays[0], y_pred.arrays[0], strict=True)):
        try:
            answer = parse_runs(truth, pixels)
        except RleError as error:
            raise GraderError(f"{metric}: answer row {row} is not a valid mask: {error}") from None
        pairs.append((answer, parse_runs(prediction, pixels)))
    return pairs


def _contrails_rule(y_true: Columns, y_pred: Columns) -> tuple[int, str] | None:
    return first_invalid_mask(y_pred.arrays[0], CONTRAILS_PIXELS)


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
)
