"""IoU of 3-D boxes turned about the vertical axis (yaw), and each prediction's best true box.

A box is seven numbers ``center_x center_y center_z width length height yaw`` in one row of an
``(n, 7)`` array. Its footprint on the ground is a rectangle whose ``length`` runs along the
heading ``(cos yaw, sin yaw)`` and whose ``width`` runs across it; it spans
``center_z ± height / 2`` vertically. The IoU of two boxes is ``footprint intersection area ×
vertical overlap`` over ``volume_a + volume_b − intersection`` (Lyft's definition; the polygons
are intersected by shapely, i.e. GEOS, never by hand).

- :func:`footprints`: the ground rectangles as shapely polygons, built in one vectorised call;
- :func:`candidate_pairs`: per group (one sample and one class), the (prediction, true box) pairs
  whose footprints touch, found with a small ``STRtree`` per group — boxes of different samples
  are never compared, and pairs that cannot overlap are never intersected;
- :func:`iou_bounds`: a cheap upper bound on pairs' IoU (bounding rectangles, heights), so pairs
  that cannot reach a sweep's lowest threshold are never intersected;
- :func:`pair_ious`: the exact IoU of given pairs;
- :func:`best_true_boxes`: each prediction's most-overlapping true box of its group (the first in
  the given order on a tie) and that IoU — what greedy VOC matching needs at every threshold, so
  the geometry is computed once for a whole sweep of thresholds.

Memory grows with the number of boxes and candidate pairs, never with their product.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import shapely

FloatArray = npt.NDArray[np.float64]
IntArray = npt.NDArray[np.intp]

WIDTH, LENGTH, HEIGHT = 3, 4, 5
"""Columns of the sizes in a box row (after the three centre coordinates)."""


def footprints(boxes: FloatArray) -> npt.NDArray[np.object_]:
    """The ground rectangle of every box, as an array of shapely polygons."""
    x, y, yaw = boxes[:, 0], boxes[:, 1], boxes[:, 6]
    half_length, half_width = boxes[:, LENGTH] / 2, boxes[:, WIDTH] / 2
    cos, sin = np.cos(yaw), np.sin(yaw)
    along = np.stack([half_length * cos, half_length * sin], axis=1)
    across = np.stack([-half_width * sin, half_width * cos], axis=1)
    centre = np.stack([x, y], axis=1)
    corners = np.stack(
        [centre + along - across, centre + along + across, centre - along + across,
         centre - along - across, centre + along - across],
        axis=1,
    )  # fmt: skip
    # closed rings of five points handed to GEOS in one flat array (no Python object per point)
    count = len(boxes)
    offsets = (np.arange(0, 5 * count + 1, 5), np.arange(count + 1))
    polygons: npt.NDArray[np.object_] = shapely.from_ragged_array(
        shapely.GeometryType.POLYGON, corners.reshape(-1, 2), offsets
    )
    return polygons


def volumes(boxes: FloatArray) -> FloatArray:
    """``width × length × height`` of every box."""
    result: FloatArray = boxes[:, WIDTH] * boxes[:, LENGTH] * boxes[:, HEIGHT]
    return result


def candidate_pairs(
    predicted: npt.NDArray[np.object_],
    predicted_groups: IntArray,
    true: npt.NDArray[np.object_],
    true_groups: IntArray,
) -> tuple[IntArray, IntArray]:
    """Index pairs (prediction, true box) of one group whose footprints intersect.

    ``predicted_groups`` and ``true_groups`` give each box's group (one sample and one class);
    only boxes of the same group are paired. Each group's true footprints go into their own
    ``STRtree``, queried with that group's predicted footprints.
    """
    pred_order = np.argsort(predicted_groups, kind="stable")
    true_order = np.argsort(true_groups, kind="stable")
    pred_sorted, true_sorted = predicted_groups[pred_order], true_groups[true_order]
    shared = np.intersect1d(pred_sorted, true_sorted)
    pred_lo, pred_hi = (
        np.searchsorted(pred_sorted, shared, "left"),
        np.searchsorted(pred_sorted, shared, "right"),
    )
    true_lo, true_hi = (
        np.searchsorted(true_sorted, shared, "left"),
        np.searchsorted(true_sorted, shared, "right"),
    )
    found_pred: list[IntArray] = []
    found_true: list[IntArray] = []
    for p0, p1, t0, t1 in zip(
        pred_lo.tolist(), pred_hi.tolist(), true_lo.tolist(), true_hi.tolist(), strict=True
    ):
        own_pred, own_true = pred_order[p0:p1], true_order[t0:t1]
        tree = shapely.STRtree(true[own_true])
        pairs = tree.query(predicted[own_pred], predicate="intersects")
        found_pred.append(own_pred[pairs[0]])
        found_true.append(own_true[pairs[1]])
    if not found_pred:
        return np.zeros(0, dtype=np.intp), np.zeros(0, dtype=np.intp)
    return np.concatenate(found_pred), np.concatenate(found_true)


def pair_ious(
    predicted: FloatArray,
    predicted_shapes: npt.NDArray[np.object_],
    true: FloatArray,
    true_shapes: npt.NDArray[np.object_],
    pairs: tuple[IntArray, IntArray],
) -> FloatArray:
    """The 3-D IoU of each pair ``(predicted[i], true[j])``, clipped to ``[0, 1]``."""
    i, j = pairs
    area = shapely.area(shapely.intersection(predicted_shapes[i], true_shapes[j]))
    a_half, b_half = predicted[i, HEIGHT] / 2, true[j, HEIGHT] / 2
    top = np.minimum(predicted[i, 2] + a_half, true[j, 2] + b_half)
    bottom = np.maximum(predicted[i, 2] - a_half, true[j, 2] - b_half)
    inter = np.asarray(area, dtype=np.float64) * np.clip(top - bottom, 0.0, None)
    union = volumes(predicted)[i] + volumes(true)[j] - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = np.where(union > 0, inter / union, 0.0)
    result: FloatArray = np.clip(iou, 0.0, 1.0)
    return result


def iou_bounds(
    predicted: FloatArray, true: FloatArray, pairs: tuple[IntArray, IntArray]
) -> FloatArray:
    """An upper bound on each pair's IoU without intersecting polygons.

    The footprints' intersection lies inside both axis-aligned bounding rectangles' intersection
    and is at most the smaller footprint; times the vertical overlap, that bounds the shared
    volume, and the IoU grows with it.
    """
    i, j = pairs
    a, b = predicted[i], true[j]

    def half_extents(box: FloatArray) -> tuple[FloatArray, FloatArray]:
        cos, sin = np.abs(np.cos(box[:, 6])), np.abs(np.sin(box[:, 6]))
        length, width = box[:, LENGTH] / 2, box[:, WIDTH] / 2
        return length * cos + width * sin, length * sin + width * cos

    (ax, ay), (bx, by) = half_extents(a), half_extents(b)
    dx = np.minimum(a[:, 0] + ax, b[:, 0] + bx) - np.maximum(a[:, 0] - ax, b[:, 0] - bx)
    dy = np.minimum(a[:, 1] + ay, b[:, 1] + by) - np.maximum(a[:, 1] - ay, b[:, 1] - by)
    smaller = np.minimum(a[:, WIDTH] * a[:, LENGTH], b[:, WIDTH] * b[:, LENGTH])
    area = np.minimum(np.clip(dx, 0.0, None) * np.clip(dy, 0.0, None), smaller)
    top = np.minimum(a[:, 2] + a[:, HEIGHT] / 2, b[:, 2] + b[:, HEIGHT] / 2)
    bottom = np.maximum(a[:, 2] - a[:, HEIGHT] / 2, b[:, 2] - b[:, HEIGHT] / 2)
    inter = area * np.clip(top - bottom, 0.0, None)
    union = volumes(a) + volumes(b) - inter
    with np.errstate(divide="ignore", invalid="ignore"):
        bound: FloatArray = np.where(union > 0, inter / union, 0.0)
    return bound


def iou_3d(a: npt.ArrayLike, b: npt.ArrayLike) -> float:
    """The IoU of two single boxes (seven numbers each)."""
    first = np.asarray(a, dtype=np.float64).reshape(1, 7)
    second = np.asarray(b, dtype=np.float64).reshape(1, 7)
    one = (np.zeros(1, dtype=np.intp), np.zeros(1, dtype=np.intp))
    return float(pair_ious(first, footprints(first), second, footprints(second), one)[0])


def best_true_boxes(
    predicted: FloatArray,
    predicted_groups: IntArray,
    true: FloatArray,
    true_groups: IntArray,
    *,
    floor: float = 0.0,
) -> tuple[IntArray, FloatArray]:
    """Per prediction: its most-overlapping true box of the same group, and that IoU.

    The index is ``-1`` (IoU 0) where no true box of its group overlaps it by more than
    ``floor``: pairs whose :func:`iou_bounds` is at most ``floor`` are never intersected (a sweep
    whose lowest threshold is ``floor`` cannot count them, nor can they beat a box above it). On
    equal IoUs the true box that comes first in ``true`` wins, as ``argmax`` over the group's
    boxes in order.
    """
    best = np.full(len(predicted), -1, dtype=np.intp)
    best_iou = np.zeros(len(predicted), dtype=np.float64)
    if len(predicted) == 0 or len(true) == 0:
        return best, best_iou
    pred_shapes, true_shapes = footprints(predicted), footprints(true)
    pairs = candidate_pairs(pred_shapes, predicted_groups, true_shapes, true_groups)
    if floor > 0:
        possible = iou_bounds(predicted, true, pairs) > floor
        pairs = (pairs[0][possible], pairs[1][possible])
    iou = pair_ious(predicted, pred_shapes, true, true_shapes, pairs)
    keep = iou > floor
    i, j, iou = pairs[0][keep], pairs[1][keep], iou[keep]
    order = np.lexsort((j, -iou, i))
    i, j, iou = i[order], j[order], iou[order]
    first = np.ones(len(i), dtype=np.bool_)
    first[1:] = i[1:] != i[:-1]
    best[i[first]] = j[first]
    best_iou[i[first]] = iou[first]
    return best, best_iou
