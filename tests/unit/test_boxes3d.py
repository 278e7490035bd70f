"""3-D IoU of yaw-rotated boxes against hand-computed values; best boxes; grouped AP and claims."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pytest_mlebench.graders.boxes import (
    average_precision,
    first_claims,
    grouped_average_precision,
    iou_matrix,
    match_greedy,
)
from pytest_mlebench.graders.boxes3d import (
    best_true_boxes,
    footprints,
    iou_3d,
    iou_bounds,
    pair_ious,
)

# center_x center_y center_z width length height yaw
UNIT = [0.0, 0.0, 0.0, 2.0, 4.0, 2.0, 0.0]


def _box(**changes: float) -> list[float]:
    names = ["x", "y", "z", "width", "length", "height", "yaw"]
    return [changes.get(name, value) for name, value in zip(names, UNIT, strict=True)]


@pytest.mark.parametrize(
    ("a", "b", "expected"),
    [
        # identical boxes
        (_box(), _box(), 1.0),
        # shifted 1 along x (the heading, yaw 0): footprint overlap 3 × 2, volume 12 of 16 + 16 − 12
        (_box(), _box(x=1.0), 12 / 20),
        # shifted 1 across (y): overlap 4 × 1 = 4, × height 2 = 8 over 32 − 8
        (_box(), _box(y=1.0), 8 / 24),
        # a 2 × 2 square turned 45° about its centre: the octagon 8(√2 − 1) over 8 − that = 1/√2
        (_box(length=2.0), _box(length=2.0, yaw=math.pi / 4), 1 / math.sqrt(2)),
        # a 2 × 4 box turned 90°: the cross's centre 2 × 2 = 4, × 2 = 8 over 32 − 8
        (_box(), _box(yaw=math.pi / 2), 1 / 3),
        # half the height overlapping: z spans [−1, 1] and [0, 2]: 8 × 1 over 16 + 16 − 8
        (_box(), _box(z=1.0), 8 / 24),
        # one box inside the other: volume 2 × 2 × 1 = 4 inside 16
        (_box(), _box(length=2.0, height=1.0), 4 / 16),
        # apart, and touching along an edge: nothing shared
        (_box(), _box(x=10.0), 0.0),
        (_box(), _box(x=4.0), 0.0),
        (_box(), _box(z=2.0), 0.0),
        # yaw and yaw + π describe the same box
        (_box(yaw=0.3), _box(yaw=0.3 + math.pi), 1.0),
    ],
)
def test_iou_of_rotated_boxes_matches_hand_computed_values(
    a: list[float], b: list[float], expected: float
) -> None:
    assert iou_3d(a, b) == pytest.approx(expected, abs=1e-12)
    assert iou_3d(b, a) == pytest.approx(expected, abs=1e-12)


def test_length_runs_along_the_heading_and_width_across() -> None:
    # a 2-wide, 4-long box heading along y (yaw π/2) is the 4-wide, 2-long box heading along x
    assert iou_3d(_box(yaw=math.pi / 2), _box(width=4.0, length=2.0)) == pytest.approx(1.0)
    (polygon,) = footprints(np.array([_box(x=10.0, y=5.0)]))
    assert polygon.bounds == pytest.approx((8.0, 4.0, 12.0, 6.0))


def test_each_prediction_takes_its_best_box_of_its_own_group_first_on_ties() -> None:
    true = np.array([_box(), _box(x=1.0), _box(x=1.0), _box()])
    true_groups = np.array([0, 0, 0, 1])
    predicted = np.array([_box(x=1.0), _box(x=0.5), _box(x=50.0), _box()])
    predicted_groups = np.array([0, 0, 0, 2])
    best, iou = best_true_boxes(predicted, predicted_groups, true, true_groups)
    # box 1 is the exact match (box 2 ties it and comes later); x = 0.5 overlaps boxes 0 and 1
    # equally (14/18), box 0 first; x = 50 overlaps nothing; group 2 has no true box at all
    assert best.tolist() == [1, 0, -1, -1]
    assert iou.tolist() == pytest.approx([1.0, 14 / 18, 0.0, 0.0])


def test_claims_from_best_boxes_equal_greedy_voc_matching() -> None:
    # flat boxes of equal height and z: 3-D IoU is the footprint IoU, so corner boxes agree
    rng = np.random.default_rng(3)
    for _ in range(20):
        n_true, n_pred = int(rng.integers(1, 6)), int(rng.integers(0, 9))
        true = np.column_stack(
            [rng.uniform(0, 6, (n_true, 2)), np.zeros(n_true), rng.uniform(1, 3, (n_true, 2)),
             np.ones(n_true), np.zeros(n_true)]
        )  # fmt: skip
        pred = true[rng.integers(0, n_true, n_pred)].copy()
        pred[:, :2] += rng.normal(0, 0.4, (n_pred, 2))
        scores = rng.choice([0.2, 0.5, 0.9], n_pred)
        corners = np.column_stack(
            [pred[:, 0] - pred[:, 4] / 2, pred[:, 1] - pred[:, 3] / 2,
             pred[:, 0] + pred[:, 4] / 2, pred[:, 1] + pred[:, 3] / 2]
        )  # fmt: skip
        true_corners = np.column_stack(
            [true[:, 0] - true[:, 4] / 2, true[:, 1] - true[:, 3] / 2,
             true[:, 0] + true[:, 4] / 2, true[:, 1] + true[:, 3] / 2]
        )  # fmt: skip
        best, best_iou = best_true_boxes(
            pred, np.zeros(n_pred, np.intp), true, np.zeros(n_true, np.intp)
        )
        if n_pred:
            dense = iou_matrix(corners, true_corners)
            assert best_iou == pytest.approx(dense.max(axis=1), abs=1e-9)
        for threshold in (0.3, 0.5, 0.7):
            expected = match_greedy(corners, scores, true_corners, threshold, rule="voc")
            got = first_claims(scores, best, best_iou, threshold)
            assert got.tolist() == expected.tolist()


def test_grouped_average_precision_equals_one_average_precision_per_group() -> None:
    rng = np.random.default_rng(7)
    groups = rng.integers(0, 6, 200)
    scores = rng.choice([0.1, 0.4, 0.4, 0.8, 0.95], 200)
    hits = rng.random(200) < 0.5
    n_true = np.array([np.sum(hits[groups == g]) + 2 for g in range(7)])  # group 6: none
    got = grouped_average_precision(groups, scores, hits, n_true)
    for group in range(7):
        own = groups == group
        expected = average_precision(scores[own], hits[own], int(n_true[group]))
        assert got[group] == pytest.approx(expected, abs=1e-12)
    assert got[6] == 0.0


def test_grouped_average_precision_needs_true_boxes_in_every_group() -> None:
    with pytest.raises(ValueError, match="at least one true box"):
        grouped_average_precision([0], [0.5], [True], [0])


def test_the_cheap_bound_never_falls_below_the_iou() -> None:
    rng = np.random.default_rng(11)
    n = 2000
    a = np.column_stack(
        [rng.uniform(0, 4, (n, 3)), rng.uniform(0.5, 5, (n, 3)), rng.uniform(-4, 4, n)]
    )
    b = np.column_stack(
        [rng.uniform(0, 4, (n, 3)), rng.uniform(0.5, 5, (n, 3)), rng.uniform(-4, 4, n)]
    )
    pairs = (np.arange(n), np.arange(n))
    exact = pair_ious(a, footprints(a), b, footprints(b), pairs)
    assert (iou_bounds(a, b, pairs) >= exact - 1e-12).all()
    assert (exact > 0.3).sum() > 20  # the draw has real overlaps


def test_a_floor_skips_only_pairs_that_cannot_clear_it() -> None:
    true = np.array([_box(), _box(x=1.0), _box(x=20.0)])
    predicted = np.array([_box(x=0.2), _box(x=1.5), _box(x=20.0, length=1.0), _box(x=22.0)])
    groups_p, groups_t = np.zeros(4, dtype=np.intp), np.zeros(3, dtype=np.intp)
    best, iou = best_true_boxes(predicted, groups_p, true, groups_t)
    floored_best, floored_iou = best_true_boxes(predicted, groups_p, true, groups_t, floor=0.5)
    above = iou > 0.5
    assert above.any() and not above.all()
    assert floored_best[above].tolist() == best[above].tolist()
    assert floored_iou[above] == pytest.approx(iou[above])
    assert (floored_best[~above] == -1).all() and (floored_iou[~above] == 0).all()
