"""Object-detection metrics over ``PredictionString`` cells: mean average precision of boxes.

Each row is one image (or one study scored like an image, with the dummy box ``0 0 1 1``); its
cell lists boxes as groups of six tokens ``label confidence x_min y_min x_max y_max``; the answer
cell lists the true boxes the same way (their confidence is ignored). :func:`box_map` is the
PASCAL VOC 2010 mAP of siim-covid19-detection's evaluation: per label, predictions of every row
pooled, matched greedily at IoU above the threshold, AP over the monotone precision envelope,
mean over the labels that have true boxes (:mod:`graders.boxes`). :func:`box_string_rule` (run
by validation) names the first row whose cell is not whole groups of six with numeric values.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

import numpy as np

from pytest_mlebench.graders.boxes import (
    Detections,
    as_boxes,
    average_precision,
    confidence_order,
    match_greedy,
)
from pytest_mlebench.graders.coco_match import coco_matches
from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.messages import show_value
from pytest_mlebench.graders.metrics.base import Array, Columns, Metric, require_same_shape

GROUP = 6
_NO_BOXES = (np.zeros(0), np.zeros((0, 4)))
for _empty in _NO_BOXES:
    _empty.flags.writeable = False


@dataclass(frozen=True)
class LabelledBoxes:
    """One cell's boxes: labels, confidences and an ``(n, 4)`` corner-box array."""

    labels: tuple[str, ...]
    scores: np.ndarray
    boxes: np.ndarray

    def of(self, label: str) -> tuple[np.ndarray, np.ndarray]:
        """Confidences and boxes of one label (read-only)."""
        return self._by_label.get(label, _NO_BOXES)

    @cached_property
    def _by_label(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Each label's confidences and boxes, split once (a cell is asked once per label of
        its row by each metric); a cell of one label keeps its arrays whole."""
        if len(set(self.labels)) <= 1:
            return {label: (self.scores, self.boxes) for label in self.labels[:1]}
        names = np.asarray(self.labels, dtype=object)
        split = {}
        for label in dict.fromkeys(self.labels):
            chosen = names == label
            scores, boxes = self.scores[chosen], self.boxes[chosen]
            scores.flags.writeable = boxes.flags.writeable = False
            split[label] = (scores, boxes)
        return split


def parse_boxes(cell: object) -> LabelledBoxes:
    """A ``PredictionString`` cell as labelled boxes; ``ValueError`` with the reason otherwise.

    An empty cell is no boxes at all. A grading parses each cell up to three times (the
    validation's check, the metric, the original's metric beside it), so parsed cells are kept
    (:func:`_parse_text`, read-only arrays) and each is parsed once.
    """
    return _parse_text(cell if isinstance(cell, str) else "")


@lru_cache(maxsize=8192)
def _parse_text(cell: str) -> LabelledBoxes:
    tokens = cell.split()
    if len(tokens) % GROUP:
        raise ValueError(
            f"has {len(tokens)} values, not whole groups of six "
            "'label confidence x_min y_min x_max y_max'"
        )
    labels = tuple(_label(token) for token in tokens[0::GROUP])
    values = tokens.copy()
    del values[0::GROUP]  # the five numbers of each group, in order
    try:
        numbers = np.fromiter(map(float, values), np.float64, len(values)).reshape(-1, GROUP - 1)
    except ValueError:
        raise ValueError(
            "holds a confidence or coordinate that is not a number (each group is "
            "'label confidence x_min y_min x_max y_max')"
        ) from None
    if not np.isfinite(numbers[:, 0]).all():
        raise ValueError("holds a confidence that is not a finite number")
    scores, boxes = numbers[:, 0].copy(), as_boxes(numbers[:, 1:])
    scores.flags.writeable = boxes.flags.writeable = False
    return LabelledBoxes(labels, scores, boxes)


@lru_cache(maxsize=4096)
def _label(token: str) -> str:
    """A label token; a whole number in any spelling (``14``, ``14.0``) is one class id."""
    try:
        number = float(token)
    except ValueError:
        return token
    return str(int(number)) if number.is_integer() else token


def box_string_rule(y_true: Columns, y_pred: Columns) -> tuple[int, str] | None:
    """The first prediction cell that is not whole groups of six with valid boxes."""
    for row, cell in enumerate(y_pred.values(0)):
        try:
            parse_boxes(cell)
        except ValueError as error:
            return row, f"PredictionString {show_value(str(cell))} {error}"
    return None


def _parsed(column: Array, side: str) -> list[LabelledBoxes]:
    try:
        return [parse_boxes(cell) for cell in column]
    except ValueError as error:
        raise GraderError(f"box-map: an {side} cell {error}") from None


def _labels(truths: list[LabelledBoxes]) -> list[str]:
    return sorted({label for cell in truths for label in cell.labels})


def box_map(y_true: Columns, y_pred: Columns, iou_threshold: float = 0.5) -> float:
    """PASCAL VOC 2010 mAP at IoU above ``iou_threshold``, over the labels of the answers.

    Predictions of a label that no answer holds cost nothing (a label without true boxes has no
    AP). Within a label, equal confidences keep the rows' order (rows are aligned to the answers).
    """
    require_same_shape(y_true, y_pred, "box-map")
    truths = _parsed(y_true.values(0), "answer")
    preds = _parsed(y_pred.values(0), "prediction")
    pool = Detections(threshold=iou_threshold, rule="voc")
    for truth, pred in zip(truths, preds, strict=True):
        for label in _labels([truth, pred]):
            scores, boxes = pred.of(label)
            pool.add_image(label, boxes, scores, truth.of(label)[1])
    try:
        return pool.mean_average_precision()
    except ValueError as error:
        raise GraderError(f"box-map: {error}") from None


def box_map_sklearn(y_true: Columns, y_pred: Columns, iou_threshold: float = 0.5) -> float:
    """The original MLE-bench's siim-covid19-detection number.

    Per label of the answers: each row's predictions are matched to the best-overlapping true
    box still unclaimed (IoU above the threshold); a match is ``(1, confidence)``, a miss
    ``(0, confidence)``, each unclaimed true box ``(1, 0)``, and a row with none of these a filler
    ``(0, 0)``; scikit-learn's ``average_precision_score`` of the pooled pairs is the label's AP
    (no precision envelope; the fillers and the score-0 misses sit at the curve's end), here
    computed by :func:`step_average_precision` without importing scikit-learn.
    """
    require_same_shape(y_true, y_pred, "box-map")
    truths = _parsed(y_true.values(0), "answer")
    preds = _parsed(y_pred.values(0), "prediction")
    aps = []
    for label in _labels(truths):
        hits: list[np.ndarray] = []
        scores: list[np.ndarray] = []
        for truth, pred in zip(truths, preds, strict=True):
            own_scores, own_boxes = pred.of(label)
            true_boxes = truth.of(label)[1]
            matched = match_greedy(own_boxes, own_scores, true_boxes, iou_threshold, rule="coco")
            unclaimed = len(true_boxes) - int(matched.sum())
            hits += [matched, np.ones(unclaimed, dtype=np.bool_)]
            scores += [own_scores, np.zeros(unclaimed)]
            if len(own_scores) + unclaimed == 0:
                hits.append(np.zeros(1, dtype=np.bool_))
                scores.append(np.zeros(1))
        aps.append(step_average_precision(np.concatenate(hits), np.concatenate(scores)))
    return float(np.mean(aps)) if aps else 0.0


def step_average_precision(hits: np.ndarray, scores: np.ndarray) -> float:
    """scikit-learn's ``average_precision_score(hits, scores)``, the same operations in numpy.

    Scores sorted falling; one curve point at the last row of each run of equal scores (its
    cumulative hits and misses); precision and recall there; the step integral
    ``-sum(diff(recall) * precision[:-1])`` over the points reversed, with ``(recall 0,
    precision 1)`` appended, clipped at 0. No hits at all gives recall 1 everywhere, as there.
    ``tests/unit/test_metric_box_map.py`` compares it with scikit-learn on random cases.
    """
    order = np.argsort(-scores, kind="stable")
    ordered_scores = scores[order]
    truth = hits[order].astype(np.float64)
    points = np.concatenate([np.nonzero(np.diff(ordered_scores))[0], [truth.size - 1]])
    tps = np.cumsum(truth, dtype=np.float64)[points]
    fps = 1 + points.astype(np.float64) - tps
    predicted = tps + fps
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = np.where(predicted != 0, np.divide(tps, predicted), 0.0)
    recall = tps / tps[-1] if tps[-1] != 0 else np.ones_like(tps)
    precision = np.concatenate([precision[::-1], [1.0]])
    recall = np.concatenate([recall[::-1], [0.0]])
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))


def _sizes_misread(boxes: np.ndarray) -> np.ndarray:
    """Corner boxes read as ``x, y, width, height`` (the original vinbigdata grader's mistake)."""
    return np.column_stack(
        [boxes[:, 0], boxes[:, 1], boxes[:, 0] + boxes[:, 2], boxes[:, 1] + boxes[:, 3]]
    )


def box_map_coco_corners_as_sizes(
    y_true: Columns, y_pred: Columns, iou_threshold: float = 0.4, max_per_label: int = 100
) -> float:
    """The original MLE-bench's vinbigdata number: COCO mAP of corner boxes read as sizes.

    Its grader hands ``x_min y_min x_max y_max`` to pycocotools, which reads ``x y width
    height``: both sides' boxes become ``(x_min, y_min, x_min + x_max, y_min + y_max)``. Then
    COCO's way: per row and label at most ``max_per_label`` predictions (the most confident),
    each matched to the best unclaimed true box at IoU at or above the threshold
    (:func:`~pytest_mlebench.graders.coco_match.coco_matches`), AP read at 101 recall points,
    mean over the labels that have true boxes. The grader numbers the true boxes from 0 and
    pycocotools reads a match to id 0 as none: the first box of the answers' first row is never
    found, so even a perfect file scores below 1.
    """
    require_same_shape(y_true, y_pred, "box-map")
    truths = _parsed(y_true.values(0), "answer")
    preds = _parsed(y_pred.values(0), "prediction")
    pooled: dict[str, tuple[list[np.ndarray], list[np.ndarray], list[int]]] = {}
    for row, (truth, pred) in enumerate(zip(truths, preds, strict=True)):
        for label in _labels([truth, pred]):
            scores, boxes = pred.of(label)
            keep = confidence_order(scores)[:max_per_label]
            true_boxes = truth.of(label)[1]
            first = row == 0 and bool(truth.labels) and truth.labels[0] == label
            hits = coco_matches(
                _sizes_misread(boxes[keep]),
                scores[keep],
                _sizes_misread(true_boxes),
                iou_threshold,
                id_zero=0 if first else None,
            )
            kept_scores, kept_hits, n_true = pooled.setdefault(label, ([], [], [0]))
            kept_scores.append(scores[keep])
            kept_hits.append(hits)
            n_true[0] += true_boxes.shape[0]
    aps = [
        average_precision(np.concatenate(s), np.concatenate(h), n[0], interpolation="coco101")
        for _, (s, h, n) in sorted(pooled.items())
        if n[0] > 0
    ]
    if not aps:
        raise GraderError("box-map: no class has a true box: mean average precision is undefined")
    return float(np.mean(aps))


DECLARATIONS = (
    Metric(
        name="box-map",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=box_map,
        description="PASCAL VOC 2010 mean average precision of labelled boxes at an IoU threshold",
        arity="one",
        parameters=("iou_threshold",),
        check_rows=box_string_rule,
    ),
    Metric(
        name="box-map-sklearn",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=box_map_sklearn,
        description="the original MLE-bench's siim-covid19-detection mAP (scikit-learn AP of "
        "matched, missed and filler pairs)",
        arity="one",
        parameters=("iou_threshold",),
        check_rows=box_string_rule,
    ),
    Metric(
        name="box-map-coco-corners-as-sizes",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=box_map_coco_corners_as_sizes,
        description="the original MLE-bench's vinbigdata mAP (COCO at one IoU threshold, corner "
        "boxes read as x, y, width, height)",
        arity="one",
        parameters=("iou_threshold", "max_per_label"),
        check_rows=box_string_rule,
    ),
)
