"""Box matching and average precision of object detection, written once for every detection grader.

Boxes are axis-aligned corner boxes ``(x_min, y_min, x_max, y_max)`` in one array of shape
``(n, 4)``. The pieces, bottom to top:

- :func:`iou_matrix`: intersection over union of every predicted box with every true box;
- :func:`match_greedy`: the predictions of one image, by falling confidence, each marked a true
  positive when it claims a true box at the IoU threshold (``voc``: the best-overlapping true box,
  a duplicate when already claimed; ``coco``: the best-overlapping box not yet claimed);
- :class:`Detections`: matched predictions of many images pooled per class, with the count of
  true boxes;
- :func:`average_precision`: the area under one class's precision-recall curve, either PASCAL
  VOC 2010's (every recall point, precision made monotone) or COCO's (101 recall points);
- :meth:`Detections.mean_average_precision`: the mean over the classes that have true boxes.

Nothing here reads files or knows a competition; callers parse submissions and hand in arrays.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[np.float64]
BoolArray = npt.NDArray[np.bool_]
MatchRule = Literal["voc", "coco"]
Interpolation = Literal["voc2010", "coco101"]


def as_boxes(values: npt.ArrayLike) -> FloatArray:
    """``values`` as an ``(n, 4)`` float array of corner boxes (an empty input gives ``(0, 4)``).

    Raises ``ValueError`` for a wrong shape, a non-finite coordinate or a box whose maximum lies
    below its minimum; a caller turns that into the submission's reason.
    """
    boxes = np.asarray(values, dtype=np.float64)
    if boxes.size == 0:
        return np.zeros((0, 4), dtype=np.float64)
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise ValueError(f"boxes need 4 coordinates each, got an array of shape {boxes.shape}")
    if not np.isfinite(boxes).all():
        raise ValueError("a box coordinate is not a finite number")
    if (boxes[:, 2] < boxes[:, 0]).any() or (boxes[:, 3] < boxes[:, 1]).any():
        raise ValueError("a box has x_max < x_min or y_max < y_min")
    return boxes


def iou_matrix(predicted: npt.ArrayLike, true: npt.ArrayLike) -> FloatArray:
    """IoU of every predicted box (rows) with every true box (columns); 0 where both areas are 0."""
    return _iou(as_boxes(predicted), as_boxes(true))


def _iou(a: FloatArray, b: FloatArray) -> FloatArray:
    """:func:`iou_matrix` of boxes :func:`as_boxes` has checked."""
    width = np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0])
    height = np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1])
    inter = np.clip(width, 0.0, None) * np.clip(height, 0.0, None)
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    union = area_a[:, None] + area_b[None, :] - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = np.where(union > 0, inter / union, 0.0)
    return iou


def confidence_order(scores: npt.ArrayLike) -> npt.NDArray[np.intp]:
    """Indices by falling confidence; equal confidences keep their given order (stable sort)."""
    return np.argsort(-np.asarray(scores, dtype=np.float64), kind="stable")


def match_greedy(
    predicted: npt.ArrayLike,
    scores: npt.ArrayLike,
    true: npt.ArrayLike,
    threshold: float,
    *,
    rule: MatchRule = "voc",
    inclusive: bool = False,
) -> BoolArray:
    """Which predictions of one image and one class are true positives (in the given order).

    Predictions are visited by falling confidence. A prediction qualifies for a true box when
    their IoU is above ``threshold`` (at or above it with ``inclusive``). ``voc``: it takes the
    true box it overlaps most; if that box is already claimed it is a false positive. ``coco``: it
    takes the most-overlapping true box still unclaimed. Each true box is claimed at most once.
    """
    boxes, true_boxes = as_boxes(predicted), as_boxes(true)
    if np.asarray(scores).reshape(-1).size != boxes.shape[0]:
        raise ValueError("each predicted box needs exactly one confidence")
    tp = np.zeros(boxes.shape[0], dtype=np.bool_)
    if boxes.shape[0] == 0 or true_boxes.shape[0] == 0:
        return tp  # nothing to match: no IoU matrix (most labels of most images)
    iou = _iou(boxes, true_boxes)
    # A prediction whose best overlap misses the threshold is a false positive under either
    # rule (what it could claim overlaps it no more), so only the others are visited: a few of
    # an image's hundreds of predictions, in the same falling-confidence order.
    best_overlap = iou.max(axis=1)
    reaches = best_overlap >= threshold if inclusive else best_overlap > threshold
    order = confidence_order(scores)
    claimed = np.zeros(iou.shape[1], dtype=np.bool_)
    for index in order[reaches[order]]:
        overlaps = iou[index] if rule == "voc" else np.where(claimed, -1.0, iou[index])
        best = int(np.argmax(overlaps))
        value = overlaps[best]
        good = value >= threshold if inclusive else value > threshold
        if good and not claimed[best]:
            claimed[best] = True
            tp[index] = True
    return tp


def average_precision(
    scores: npt.ArrayLike,
    tp: npt.ArrayLike,
    n_true: int,
    *,
    interpolation: Interpolation = "voc2010",
) -> float:
    """Area under one class's precision-recall curve over pooled predictions.

    ``scores`` and ``tp`` describe every prediction of the class (any order; they are sorted by
    falling confidence, ties stable). ``n_true`` is the number of true boxes; it must be positive.
    ``voc2010``: precision is made non-increasing in recall and integrated over every recall step.
    ``coco101``: the same envelope read at recall 0, 0.01, …, 1 and averaged.
    No predictions give 0.
    """
    if n_true <= 0:
        raise ValueError("average precision needs at least one true box")
    order = confidence_order(scores)
    hits = np.asarray(tp, dtype=np.bool_)[order]
    if hits.size == 0:
        return 0.0
    tp_cum = np.cumsum(hits)
    fp_cum = np.cumsum(~hits)
    recall = tp_cum / n_true
    precision = tp_cum / (tp_cum + fp_cum)
    envelope = np.maximum.accumulate(precision[::-1])[::-1]
    if interpolation == "coco101":
        points = np.linspace(0.0, 1.0, 101)
        at = np.searchsorted(recall, points, side="left")
        read = np.where(at < envelope.size, envelope[np.minimum(at, envelope.size - 1)], 0.0)
        return float(read.mean())
    steps = np.diff(np.concatenate(([0.0], recall)))
    return float(np.sum(steps * envelope))


@dataclass
class _ClassPool:
    scores: list[FloatArray] = field(default_factory=list)
    hits: list[BoolArray] = field(default_factory=list)
    n_true: int = 0


@dataclass
class Detections:
    """Matched predictions of many images, pooled per class, ready for average precision."""

    threshold: float
    rule: MatchRule = "voc"
    inclusive: bool = False
    _pools: dict[str, _ClassPool] = field(default_factory=dict)

    def add_image(
        self,
        label: str,
        predicted: npt.ArrayLike,
        scores: npt.ArrayLike,
        true: npt.ArrayLike,
    ) -> None:
        """Match one image's predictions of ``label`` against its true boxes and pool them."""
        pool = self._pools.setdefault(label, _ClassPool())
        score_array = np.asarray(scores, dtype=np.float64).reshape(-1)
        true_boxes = as_boxes(true)
        hits = match_greedy(
            predicted,
            score_array,
            true_boxes,
            self.threshold,
            rule=self.rule,
            inclusive=self.inclusive,
        )
        pool.scores.append(score_array)
        pool.hits.append(hits)
        pool.n_true += true_boxes.shape[0]

    def average_precisions(self, interpolation: Interpolation = "voc2010") -> dict[str, float]:
        """AP per class that has at least one true box (classes without any are left out)."""
        result: dict[str, float] = {}
        for label, pool in sorted(self._pools.items()):
            if pool.n_true == 0:
                continue
            scores = np.concatenate(pool.scores) if pool.scores else np.zeros(0)
            hits = np.concatenate(pool.hits) if pool.hits else np.zeros(0, dtype=np.bool_)
            result[label] = average_precision(
                scores, hits, pool.n_true, interpolation=interpolation
            )
        return result

    def mean_average_precision(self, interpolation: Interpolation = "voc2010") -> float:
        """Mean AP over the classes with true boxes; raises ``ValueError`` when there are none."""
        return mean_over_classes(self.average_precisions(interpolation).values())


def mean_over_classes(values: Iterable[float]) -> float:
    """Unweighted mean of per-class APs; raises ``ValueError`` for no classes."""
    collected = list(values)
    if not collected:
        raise ValueError("no class has a true box: mean average precision is undefined")
    return float(np.mean(collected))


def first_claims(
    scores: npt.ArrayLike,
    best: npt.ArrayLike,
    best_iou: npt.ArrayLike,
    threshold: float,
    *,
    inclusive: bool = False,
) -> BoolArray:
    """:func:`match_greedy`'s ``voc`` rule from each prediction's best-overlapping true box.

    ``best`` holds each prediction's most-overlapping true box (any integer id unique over every
    image and class pooled, ``-1`` for none) and ``best_iou`` that IoU. Under the ``voc`` rule the
    box a prediction aims at does not depend on the threshold, so one geometry pass serves a whole
    sweep: visited by falling confidence (ties in the given order), a prediction is a true
    positive when its IoU clears ``threshold`` and it is the first to claim its box.
    """
    order = confidence_order(scores)
    targets = np.asarray(best, dtype=np.intp)[order]
    overlaps = np.asarray(best_iou, dtype=np.float64)[order]
    good = (overlaps >= threshold) if inclusive else (overlaps > threshold)
    good &= targets >= 0
    candidates = order[good]
    _, first = np.unique(targets[good], return_index=True)
    tp = np.zeros(len(order), dtype=np.bool_)
    tp[candidates[first]] = True
    return tp


def grouped_average_precision(
    groups: npt.ArrayLike, scores: npt.ArrayLike, tp: npt.ArrayLike, n_true: npt.ArrayLike
) -> FloatArray:
    """:func:`average_precision` (VOC 2010) of many groups at once, one value per group.

    ``groups`` gives each prediction's group (``0 … len(n_true) - 1``), ``n_true`` each group's
    number of true boxes (positive). Within a group, predictions are ranked by falling
    confidence, ties in the given order; a group without predictions gets 0.
    """
    group = np.asarray(groups, dtype=np.intp)
    counts = np.asarray(n_true, dtype=np.float64)
    if (counts <= 0).any():
        raise ValueError("average precision needs at least one true box per group")
    result = np.zeros(len(counts), dtype=np.float64)
    if group.size == 0:
        return result
    order = np.lexsort((np.arange(group.size), -np.asarray(scores, dtype=np.float64), group))
    group, hits = group[order], np.asarray(tp, dtype=np.bool_)[order]
    starts = np.ones(group.size, dtype=np.bool_)
    starts[1:] = group[1:] != group[:-1]
    start_index = np.maximum.accumulate(np.where(starts, np.arange(group.size), 0))
    tp_cum = np.cumsum(hits)
    before = np.where(start_index > 0, tp_cum[start_index - 1], 0)
    hits_in: FloatArray = (tp_cum - before).astype(np.float64)
    precision = hits_in / (np.arange(group.size) - start_index + 1)
    # The envelope (best precision at this recall or beyond) per group in one pass: groups are
    # lifted apart by 2 (precision lies in [0, 1]) so a running maximum never crosses a group.
    lift = 2.0 * (int(group.max()) + 1 - group)
    envelope = np.maximum.accumulate((precision + lift)[::-1])[::-1] - lift
    steps = hits / counts[group]
    result += np.bincount(group, weights=steps * envelope, minlength=len(counts))
    return result
