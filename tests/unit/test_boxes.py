"""Box matching and average precision: hand-worked IoUs, the two matching rules, VOC and COCO AP."""

from __future__ import annotations

import numpy as np
import pytest

from pytest_mlebench.graders.boxes import (
    Detections,
    as_boxes,
    average_precision,
    iou_matrix,
    match_greedy,
    mean_over_classes,
)


def test_iou_table() -> None:
    predicted = [[0, 0, 2, 2], [0, 0, 2, 2], [5, 5, 6, 6], [2, 0, 4, 2], [1, 1, 1, 1]]
    true = [[1, 1, 3, 3], [0, 0, 2, 2]]
    expected = [
        [1 / 7, 1.0],  # overlap 1, union 4 + 4 - 1; identical
        [1 / 7, 1.0],
        [0.0, 0.0],  # disjoint
        [1 / 7, 0.0],  # (2,1)-(3,2) overlaps; touching an edge is no overlap
        [0.0, 0.0],  # zero area
    ]
    assert iou_matrix(predicted, true) == pytest.approx(np.array(expected), abs=1e-12)
    assert iou_matrix([[1, 1, 1, 1]], [[1, 1, 1, 1]]) == pytest.approx(np.array([[0.0]]))
    assert iou_matrix([], true).shape == (0, 2)


@pytest.mark.parametrize(
    ("boxes", "reason"),
    [
        ([[0, 0, 1]], "4 coordinates"),
        ([[0, 0, 1, float("nan")]], "finite"),
        ([[2, 0, 1, 1]], "x_max < x_min"),
    ],
)
def test_bad_boxes_are_refused_with_a_reason(boxes: list[list[float]], reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        as_boxes(boxes)


# T1 = (0,0,10,10), T2 = (0,0,10,6). P1 (0.9) = T1: IoU 1 with T1, 0.6 with T2.
# P2 (0.8) = (0,0,10,9): IoU 0.9 with T1, 60/90 with T2.
TRUE = [[0, 0, 10, 10], [0, 0, 10, 6]]
PRED = [[0, 0, 10, 9], [0, 0, 10, 10]]  # listed out of confidence order on purpose
SCORES = [0.8, 0.9]


def test_voc_rule_a_duplicate_of_a_claimed_box_is_a_false_positive() -> None:
    # P1 claims T1; P2's best box is T1, already claimed: false positive
    assert match_greedy(PRED, SCORES, TRUE, 0.5, rule="voc").tolist() == [False, True]


def test_coco_rule_falls_back_to_the_best_unclaimed_box() -> None:
    # P1 claims T1; P2 takes T2 (IoU 2/3 > 0.5)
    assert match_greedy(PRED, SCORES, TRUE, 0.5, rule="coco").tolist() == [True, True]


def test_confidence_decides_who_claims_a_box() -> None:
    # the same two boxes with P2 more confident: P2 claims T1, P1's best (T1) is taken
    assert match_greedy(PRED, [0.9, 0.8], TRUE, 0.5, rule="voc").tolist() == [True, False]


def test_threshold_is_strict_unless_inclusive() -> None:
    # (0,0,2,1) against (0,0,2,2): overlap 2, union 4, IoU exactly 0.5
    assert match_greedy([[0, 0, 2, 1]], [1.0], [[0, 0, 2, 2]], 0.5).tolist() == [False]
    assert match_greedy([[0, 0, 2, 1]], [1.0], [[0, 0, 2, 2]], 0.5, inclusive=True).tolist() == [
        True
    ]


def test_no_true_boxes_makes_every_prediction_false() -> None:
    assert match_greedy([[0, 0, 1, 1]], [0.5], [], 0.5).tolist() == [False]


# Five predictions of one class, four true boxes:
# score  0.9  0.8  0.7  0.6  0.5
# tp     1    0    1    0    1
# prec   1    1/2  2/3  1/2  3/5     envelope 1, 2/3, 2/3, 3/5, 3/5
# recall 1/4  1/4  1/2  1/2  3/4
HIT_SCORES = [0.6, 0.9, 0.5, 0.8, 0.7]  # shuffled: AP sorts by confidence
HITS = [False, True, True, False, True]


def test_voc2010_average_precision() -> None:
    # 1/4·1 + 1/4·2/3 + 1/4·3/5 = 17/30
    assert average_precision(HIT_SCORES, HITS, 4) == pytest.approx(17 / 30, abs=1e-12)


def test_coco101_average_precision() -> None:
    # recall 0..0.25: 26 points at 1; 0.26..0.50: 25 at 2/3; 0.51..0.75: 25 at 3/5;
    # 0.76..1: 25 points at 0 → (26 + 50/3 + 15) / 101
    value = average_precision(HIT_SCORES, HITS, 4, interpolation="coco101")
    assert value == pytest.approx(173 / 303, abs=1e-12)


def test_average_precision_edges() -> None:
    assert average_precision([], [], 3) == 0.0
    assert average_precision([0.1, 0.9], [True, True], 2) == pytest.approx(1.0)
    with pytest.raises(ValueError, match="true box"):
        average_precision([0.5], [True], 0)


def test_detections_pool_images_then_average_over_classes() -> None:
    pool = Detections(threshold=0.5)
    # class "a": image 1 one hit at 0.9 and one miss at 0.3; image 2 one true box found at 0.6
    pool.add_image("a", [[0, 0, 1, 1], [5, 5, 6, 6]], [0.9, 0.3], [[0, 0, 1, 1]])
    pool.add_image("a", [[0, 0, 2, 2]], [0.6], [[0, 0, 2, 2]])
    # class "b": two true boxes, nothing predicted → AP 0
    pool.add_image("b", [], [], [[0, 0, 1, 1], [2, 2, 3, 3]])
    # class "c": predictions but no true box anywhere → left out of the mean
    pool.add_image("c", [[0, 0, 1, 1]], [0.99], [])
    aps = pool.average_precisions()
    # "a" pooled: 0.9 hit, 0.6 hit, 0.3 miss with 2 true boxes → recall reaches 1 at precision 1
    assert aps == pytest.approx({"a": 1.0, "b": 0.0})
    assert pool.mean_average_precision() == pytest.approx(0.5)


def test_mean_over_no_classes_is_undefined() -> None:
    with pytest.raises(ValueError, match="undefined"):
        mean_over_classes([])
    with pytest.raises(ValueError, match="one confidence"):
        Detections(threshold=0.5).add_image("a", [[0, 0, 1, 1]], [0.5, 0.6], [[0, 0, 1, 1]])
