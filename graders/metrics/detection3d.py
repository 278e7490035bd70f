"""Mean average precision of 3-D boxes over an IoU sweep: Lyft's 3-D object detection metric.

Each row is one sample (a lidar sweep and its camera images); its ``PredictionString`` lists boxes
as groups of nine tokens ``confidence center_x center_y center_z width length height yaw
class_name`` (an empty cell is no boxes); the answer cell lists the true boxes the same way (their
confidence is ignored). :func:`box3d_map` is the competition's score: at each IoU threshold 0.5,
0.55, …, 0.95, per class the predictions of every sample are pooled, visited by falling
confidence and matched greedily to the true box of their sample they overlap most (IoU above the
threshold; a second prediction on a claimed box is a false positive); the class's AP is the area
under the precision–recall curve with precision made non-increasing; the threshold's mAP is the
mean over the classes that have true boxes, and the score the mean over thresholds.
:func:`box3d_map_per_sample` is the original MLE-bench's number (the same AP per sample over that
sample's true classes only, then the mean over samples). The geometry is
:mod:`graders.boxes3d`; matching and AP are :mod:`graders.boxes`. :func:`box3d_rule` (run by
validation) names the first row whose cell is not whole groups of nine with finite numbers,
positive sizes and a known class.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pytest_mlebench.graders.boxes import (
    average_precision,
    first_claims,
    grouped_average_precision,
    mean_over_classes,
)
from pytest_mlebench.graders.boxes3d import best_true_boxes
from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.messages import show_value
from pytest_mlebench.graders.metrics.base import Array, Columns, Metric, require_same_shape

GROUP = 9
FIELDS = "confidence center_x center_y center_z width length height yaw class_name"
CLASSES = (
    "animal", "bicycle", "bus", "car", "emergency_vehicle", "motorcycle", "other_vehicle",
    "pedestrian", "truck",
)  # fmt: skip
"""Lyft's nine object classes (``category.json``), in sorted order."""
THRESHOLDS = tuple(round(0.5 + 0.05 * step, 2) for step in range(10))
_CODES = {name: code for code, name in enumerate(CLASSES)}


@dataclass(frozen=True)
class Boxes3D:
    """The boxes of a whole column: each box's row, confidence, class code and geometry."""

    rows: np.ndarray
    scores: np.ndarray
    classes: np.ndarray
    boxes: np.ndarray

    @property
    def groups(self) -> np.ndarray:
        """Each box's (row, class) group as one integer."""
        result: np.ndarray = self.rows * len(CLASSES) + self.classes
        return result


def parse_cell(cell: object) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Confidences, class codes and an ``(n, 7)`` box array; ``ValueError`` with the reason."""
    tokens = cell.split() if isinstance(cell, str) else []
    if len(tokens) % GROUP:
        raise ValueError(f"has {len(tokens)} values, not whole groups of nine '{FIELDS}'")
    table = np.array(tokens, dtype=object).reshape(-1, GROUP)
    try:
        numbers = table[:, : GROUP - 1].astype(np.float64)
    except ValueError:
        raise ValueError(f"holds a value that is not a number (each group is '{FIELDS}')") from None
    if not np.isfinite(numbers).all():
        raise ValueError("holds a value that is not a finite number (NaN or infinity)")
    if (numbers[:, 4:7] <= 0).any():
        raise ValueError("holds a box whose width, length or height is not positive")
    try:
        classes = np.array([_CODES[name] for name in table[:, GROUP - 1]], dtype=np.intp)
    except KeyError as error:
        raise ValueError(
            f"names the class {error.args[0]!r}; the classes are {', '.join(CLASSES)}"
        ) from None
    return numbers[:, 0], classes, numbers[:, 1:]


def parse_column(column: Array) -> Boxes3D:
    """Every cell of a column; ``ValueError`` naming the row position and the reason.

    All tokens are converted in one pass; only a column with a fault is read again cell by
    cell, to name the first row that has one.
    """
    tokens: list[str] = []
    counts = np.zeros(len(column), dtype=np.intp)
    for row, cell in enumerate(column):
        own = cell.split() if isinstance(cell, str) else []
        counts[row] = len(own)
        tokens += own
    try:
        if (counts % GROUP).any():
            raise ValueError("a cell is not whole groups")
        table = np.array(tokens, dtype=object).reshape(-1, GROUP)
        numbers = table[:, : GROUP - 1].astype(np.float64)
        names, codes = np.unique(table[:, GROUP - 1].astype(str), return_inverse=True)
        known = np.array([_CODES.get(name, -1) for name in names.tolist()], dtype=np.intp)
        classes = known[codes.reshape(-1)]
        if not np.isfinite(numbers).all() or (numbers[:, 4:7] <= 0).any() or (classes < 0).any():
            raise ValueError("a box is not valid")
    except ValueError:
        _raise_first_fault(column)
        raise
    rows = np.repeat(np.arange(len(column), dtype=np.intp), counts // GROUP)
    return Boxes3D(rows, numbers[:, 0], classes, numbers[:, 1:])


def _raise_first_fault(column: Array) -> None:
    """Raise ``ValueError(row, reason)`` for the first cell :func:`parse_cell` refuses."""
    for row, cell in enumerate(column):
        try:
            parse_cell(cell)
        except ValueError as error:
            raise ValueError(row, f"PredictionString {show_value(str(cell))} {error}") from None


def box3d_rule(y_true: Columns, y_pred: Columns) -> tuple[int, str] | None:
    """The first prediction cell that is not whole groups of nine with valid boxes."""
    try:
        parse_column(y_pred.values(0))
    except ValueError as error:
        row, reason = error.args
        return int(row), str(reason)
    return None


def _parsed(column: Array, side: str) -> Boxes3D:
    try:
        return parse_column(column)
    except ValueError as error:
        raise GraderError(f"box3d-map: an {side} cell {error.args[-1]}") from None


@dataclass(frozen=True)
class _Matched:
    """Both sides parsed and each prediction's best true box found once for the whole sweep."""

    truth: Boxes3D
    pred: Boxes3D
    best: np.ndarray
    best_iou: np.ndarray

    def hits(self, threshold: float) -> np.ndarray:
        """Which predictions are true positives at ``threshold`` (greedy VOC matching)."""
        return first_claims(self.pred.scores, self.best, self.best_iou, threshold)


def _match(y_true: Columns, y_pred: Columns) -> _Matched:
    require_same_shape(y_true, y_pred, "box3d-map")
    truth = _parsed(y_true.values(0), "answer")
    pred = _parsed(y_pred.values(0), "prediction")
    if truth.rows.size == 0:
        raise GraderError("box3d-map: no answer holds a box: mean average precision is undefined")
    best, best_iou = best_true_boxes(
        pred.boxes, pred.groups, truth.boxes, truth.groups, floor=min(THRESHOLDS)
    )
    return _Matched(truth, pred, best, best_iou)


def box3d_map(y_true: Columns, y_pred: Columns) -> float:
    """Lyft's score: the mean over IoU thresholds of the mAP over classes, samples pooled.

    A prediction of a class is a false positive wherever its sample holds no true box of that
    class, as long as some sample does; a class that no answer holds has no AP. Equal
    confidences keep the rows' order (rows are aligned to the answers).
    """
    matched = _match(y_true, y_pred)
    truth, pred = matched.truth, matched.pred
    classes = np.unique(truth.classes)
    n_true = np.bincount(truth.classes, minlength=len(CLASSES))
    per_threshold = []
    for threshold in THRESHOLDS:
        hits = matched.hits(threshold)
        aps = []
        for code in classes.tolist():
            own = pred.classes == code
            aps.append(average_precision(pred.scores[own], hits[own], int(n_true[code])))
        per_threshold.append(mean_over_classes(aps))
    return float(np.mean(per_threshold))


def box3d_map_per_sample(y_true: Columns, y_pred: Columns) -> float:
    """The original MLE-bench's number: the same AP per sample, then the mean over samples.

    Per sample and threshold, the mAP is the mean over the classes of that sample's true boxes
    (a class without predictions there scores 0); predictions of classes the sample does not
    hold are left out, so they cost nothing. Each sample's mean over thresholds is averaged over
    samples. A sample without any true box makes the original's number NaN; here it is an error.
    """
    matched = _match(y_true, y_pred)
    truth, pred = matched.truth, matched.pred
    groups, n_true = np.unique(truth.groups, return_counts=True)
    samples = np.unique(truth.rows)
    if len(samples) != y_true.rows:
        raise GraderError(
            "box3d-map-per-sample: an answer row has no box; the original's per-sample mean "
            "is NaN there"
        )
    group_sample = groups // len(CLASSES)
    classes_per_sample = np.bincount(group_sample, minlength=len(samples)).astype(np.float64)
    position = np.searchsorted(groups, pred.groups)
    position = np.minimum(position, len(groups) - 1)
    scored = groups[position] == pred.groups
    total = np.zeros(len(samples), dtype=np.float64)
    for threshold in THRESHOLDS:
        hits = matched.hits(threshold)
        aps = grouped_average_precision(position[scored], pred.scores[scored], hits[scored], n_true)
        total += np.bincount(group_sample, weights=aps, minlength=len(samples))
    per_sample = total / classes_per_sample / len(THRESHOLDS)
    return float(per_sample.mean())


DECLARATIONS = (
    Metric(
        name="box3d-map",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=box3d_map,
        description="mean over IoU thresholds 0.5 to 0.95 of the mAP of yaw-rotated 3-D boxes, "
        "samples pooled per class (Lyft 3-D object detection)",
        arity="one",
        check_rows=box3d_rule,
    ),
    Metric(
        name="box3d-map-per-sample",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=box3d_map_per_sample,
        description="the original MLE-bench's 3-D mAP: per sample over its true classes, then "
        "the mean over samples",
        arity="one",
        check_rows=box3d_rule,
    ),
)
