"""UW-Madison's metric: 0.4 · mean slice Dice + 0.6 · (1 − mean normalised 3-D Hausdorff distance).

Each row is one organ (``class``) on one MRI slice, its mask run-length encoded row-major
(1-based ``start length`` pairs along each row of a ``width x height`` slice; an empty cell, ``-``
or a missing value is an empty mask, :mod:`graders.rle`).

- **Dice**, per row: ``2·|X ∩ Y| / (|X| + |Y|)`` from the run intervals. A row empty on both sides
  is skipped (not 0, not 1), so the mean runs over the rows where either side has a pixel.
- **Hausdorff**, per volume: the slices of one case and day, stacked in slice order with a slice
  depth of 1, one volume per class. Every voxel's coordinates are divided by the volume's extent
  along each axis (slices, height, width), which puts the volume in the unit cube, and the
  symmetric Hausdorff distance of the two voxel sets is divided by the cube's diagonal √3, so it
  lies in [0, 1]. A volume empty on both sides is skipped, one empty on one side only counts 1,
  identical volumes count 0.

The score is ``0.4 · mean Dice + 0.6 · (1 − mean distance)`` (higher is better). Each volume is
built only over the slices and rows that hold a voxel of either side and measured exactly by
:mod:`graders.metrics.hausdorff` (a KD-tree of surface voxels, or distance transforms); only one
volume (a few hundred slices of some 70,000 pixels at most) is in memory at a time.

The answers carry what the metric needs beside the mask (arity ``described``): ``image_width``,
``image_height``, ``organ`` (the row's ``class`` again: the key column is the id's, not an answer),
``case_day`` (``case123_day20``) and ``slice`` (its number).

:func:`merged_dice_hausdorff` is the original MLE-bench's number: the same Dice, but one volume
per case and day with the three organs OR-ed together, decoded column-major (down each column), so
a slice that is not square is scrambled, and a prediction with more than ten times the true
voxels counts distance 1 without measuring.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Columns, Metric
from pytest_mlebench.graders.metrics.hausdorff import BoolVolume, hausdorff_distance
from pytest_mlebench.graders.metrics.iou_sweep import first_invalid_mask
from pytest_mlebench.graders.rle import Order, RleError, Runs, intersection_area, parse_runs

DICE_WEIGHT, HAUSDORFF_WEIGHT = 0.4, 0.6
"""The weights of the mean Dice and of ``1 −`` the mean distance."""

ORIGINAL_SHORTCUT = 10
"""The original's shortcut: a prediction with more than this many times the true voxels is 1."""

ANSWER_COLUMNS = ("image_width", "image_height", "organ", "case_day", "slice")
"""The answer columns after the mask, in the order the metric reads them."""


@dataclass(frozen=True)
class _Row:
    truth: Runs
    prediction: Runs
    width: int
    height: int
    organ: str
    case_day: str
    slice: int


def dice_hausdorff(y_true: Columns, y_pred: Columns) -> float:
    """Kaggle's score: per-row Dice and per case, day and class 3-D Hausdorff distance."""
    rows = _rows(y_true, y_pred, "dice-hausdorff")
    volumes = _group(rows, lambda row: (row.case_day, row.organ))
    distances = (_volume_distance(group, "row", merged=False) for group in volumes.values())
    return _combine(rows, distances, "dice-hausdorff")


def merged_dice_hausdorff(y_true: Columns, y_pred: Columns) -> float:
    """The original MLE-bench's number: as :func:`dice_hausdorff`, but one volume per case and
    day with the organs OR-ed, decoded column-major, and distance 1 past ten times the voxels."""
    rows = _rows(y_true, y_pred, "dice-hausdorff-classes-merged")
    volumes = _group(rows, lambda row: (row.case_day, ""))
    distances = (_volume_distance(group, "column", merged=True) for group in volumes.values())
    return _combine(rows, distances, "dice-hausdorff-classes-merged")


def slice_dice(truth: Runs, prediction: Runs) -> float | None:
    """The Dice of one row; None when both masks are empty (the row is skipped)."""
    total = truth.area + prediction.area
    if total == 0:
        return None
    return 2.0 * intersection_area(truth, prediction) / total


def _combine(rows: list[_Row], distances: Iterator[float | None], metric: str) -> float:
    dices = [d for d in (slice_dice(row.truth, row.prediction) for row in rows) if d is not None]
    measured = [distance for distance in distances if distance is not None]
    if not dices or not measured:
        raise GraderError(f"{metric}: the answers hold no mask pixel at all")
    mean_dice, mean_distance = sum(dices) / len(dices), sum(measured) / len(measured)
    return DICE_WEIGHT * mean_dice + HAUSDORFF_WEIGHT * (1.0 - mean_distance)


def _group(rows: list[_Row], key: Callable[[_Row], tuple[str, str]]) -> dict[object, list[_Row]]:
    groups: dict[object, list[_Row]] = defaultdict(list)
    for row in rows:
        groups[key(row)].append(row)
    return groups


def _volume_distance(group: list[_Row], order: Order, merged: bool) -> float | None:
    """The distance of one volume, its slices built from the group's rows in slice order.

    Only the slices and the rows (or, down the columns, the columns) that hold a voxel of either
    side are built; the distance is scaled by the whole volume's extent.
    """
    slices = sorted({row.slice for row in group})
    sizes = {(row.width, row.height) for row in group}
    if len(sizes) != 1:
        raise GraderError(f"volume {group[0].case_day}: its slices differ in size {sorted(sizes)}")
    if not merged and len(slices) != len(group):
        raise GraderError(f"volume {group[0].case_day}: a slice is listed twice for one class")
    (width, height) = sizes.pop()
    extent = (len(slices), height, width)
    position = {number: index for index, number in enumerate(slices)}
    masks = [(position[row.slice], row.truth, row.prediction) for row in group]
    present = [(z, t, p) for z, t, p in masks if not (t.empty and p.empty)]
    if not present:
        return None
    minor = width if order == "row" else height  # pixels along the direction runs count in
    lines = [
        (int(runs.starts[0]) // minor, (int(runs.ends[-1]) - 1) // minor)
        for _, t, p in present
        for runs in (t, p)
        if not runs.empty
    ]
    first_line, last_line = min(start for start, _ in lines), max(end for _, end in lines)
    first_z, last_z = min(z for z, _, _ in present), max(z for z, _, _ in present)
    frame = _Frame(first_z, last_z - first_z + 1, first_line, last_line - first_line + 1, minor)
    truth = _volume([(z, t) for z, t, _ in present], frame, order)
    prediction = _volume([(z, p) for z, _, p in present], frame, order)
    if merged and truth.any() and prediction.sum() > ORIGINAL_SHORTCUT * truth.sum():
        return 1.0
    return hausdorff_distance(truth, prediction, extent)


@dataclass(frozen=True)
class _Frame:
    """The part of a volume that is built: slices from ``first_z``, lines (rows when runs count
    along rows, columns otherwise) from ``first_line``, each ``minor`` pixels long."""

    first_z: int
    depth: int
    first_line: int
    lines: int
    minor: int


def _volume(masks: list[tuple[int, Runs]], frame: _Frame, order: Order) -> BoolVolume:
    """The voxels of slice masks inside ``frame``; runs of the same slice may overlap (OR)."""
    pixels = frame.lines * frame.minor
    coverage = np.zeros(frame.depth * pixels + 1, dtype=np.int8)
    shift = frame.first_line * frame.minor
    for z, runs in masks:
        offset = (z - frame.first_z) * pixels - shift
        np.add.at(coverage, runs.starts + offset, 1)
        np.add.at(coverage, runs.ends + offset, -1)
    flat = np.cumsum(coverage[:-1], dtype=np.int8) > 0
    volume = flat.reshape(frame.depth, frame.lines, frame.minor)
    return volume if order == "row" else volume.transpose(0, 2, 1)


def _rows(y_true: Columns, y_pred: Columns, metric: str) -> list[_Row]:
    """Each row's masks and description; a broken answer is the competition's fault."""
    if len(y_true.arrays) != 1 + len(ANSWER_COLUMNS):
        raise GraderError(f"{metric}: the answers need the mask, then {', '.join(ANSWER_COLUMNS)}")
    sizes = _sizes(y_true, metric)
    masks, organs, case_days, numbers = (y_true.values(j) for j in (0, 3, 4, 5))
    predictions = y_pred.values(0)
    slices = _slice_numbers(numbers, metric)
    rows = []
    for index, (width, height) in enumerate(sizes):
        pixels = width * height
        try:
            truth = parse_runs(masks[index], pixels)
        except RleError as error:
            raise GraderError(
                f"{metric}: answer row {index} is not a valid mask: {error}"
            ) from None
        rows.append(
            _Row(
                truth=truth,
                prediction=parse_runs(predictions[index], pixels),
                width=width,
                height=height,
                organ=str(organs[index]),
                case_day=str(case_days[index]),
                slice=slices[index],
            )
        )
    return rows


def _sizes(y_true: Columns, metric: str) -> list[tuple[int, int]]:
    try:
        widths, heights = y_true.float_column(1), y_true.float_column(2)
    except ValueError:
        raise GraderError(f"{metric}: image widths and heights must be numbers") from None
    if not ((widths >= 1) & (heights >= 1)).all():
        raise GraderError(f"{metric}: every slice needs a width and a height of at least 1")
    return [(int(w), int(h)) for w, h in zip(widths, heights, strict=True)]


def _slice_numbers(values: npt.NDArray[np.object_], metric: str) -> list[int]:
    try:
        return [int(str(value)) for value in values]
    except ValueError:
        raise GraderError(f"{metric}: the answers' slice numbers must be whole numbers") from None


def _row_rule(y_true: Columns, y_pred: Columns) -> tuple[int, str] | None:
    """The first prediction that is not a valid mask of its own slice's pixels, and why."""
    sizes = _sizes(y_true, "dice-hausdorff")
    cells = y_pred.values(0)
    for row, (width, height) in enumerate(sizes):
        found = first_invalid_mask(cells[row : row + 1], width * height)
        if found is not None:
            return row, found[1]
    return None


DECLARATIONS = (
    Metric(
        name="dice-hausdorff",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=dice_hausdorff,
        description=(
            "0.4 x mean slice Dice + 0.6 x (1 - mean 3-D Hausdorff distance per case, day and "
            "class, in the unit cube over its diagonal) of row-major run-length masks; rows "
            "and volumes empty on both sides skipped; answers: mask, " + ", ".join(ANSWER_COLUMNS)
        ),
        arity="described",
        check_rows=_row_rule,
    ),
    Metric(
        name="dice-hausdorff-classes-merged",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=merged_dice_hausdorff,
        description=(
            "the original MLE-bench's dice-hausdorff: one volume per case and day with the "
            "organs OR-ed, masks decoded column-major, distance 1 past ten times the true voxels"
        ),
        arity="described",
        check_rows=_row_rule,
    ),
)
