"""Lyft's 3-D box mAP: the IoU sweep, samples pooled, the original's per-sample number, the rule."""

from __future__ import annotations

import pytest

from pytest_mlebench.graders import Columns, get_metric
from pytest_mlebench.graders.metrics.detection3d import box3d_rule

BOX3D = get_metric("box3d-map")
ORIGINAL = get_metric("box3d-map-per-sample")
CAR = "0 0 0 2 4 2 0 car"
CAR_FAR = "10 10 0 2 4 2 0 car"
PEDESTRIAN = "20 20 0 1 1 2 0 pedestrian"


def _cols(truth: list[str], pred: list[str]) -> tuple[Columns, Columns]:
    return Columns.of({"t": truth}), Columns.of({"p": pred})


def _with(confidence: float, box: str) -> str:
    return f"{confidence} {box}"


TRUTH = [_with(1, CAR), f"{_with(1, CAR_FAR)} {_with(1, PEDESTRIAN)}"]


def test_perfect_and_empty_predictions() -> None:
    assert BOX3D.compute(*_cols(TRUTH, TRUTH)) == pytest.approx(1.0)
    assert ORIGINAL.compute(*_cols(TRUTH, TRUTH)) == pytest.approx(1.0)
    assert BOX3D.compute(*_cols(TRUTH, ["", ""])) == pytest.approx(0.0)
    assert ORIGINAL.compute(*_cols(TRUTH, ["", ""])) == pytest.approx(0.0)


def test_a_prediction_of_a_class_its_sample_lacks_costs_in_the_pooled_score_only() -> None:
    # sample 1 has no pedestrian; a confident pedestrian there ranks before the true one:
    # pooled pedestrian AP = precision 1/2 at recall 1 = 1/2; car AP 1 → 3/4 at every threshold.
    # Per sample, sample 1's classes are {car}: the pedestrian is never looked at → 1.
    pred = [
        f"{_with(0.9, '30 30 0 1 1 2 0 pedestrian')} {_with(0.5, CAR)}",
        f"{_with(1, CAR_FAR)} {_with(0.6, PEDESTRIAN)}",
    ]
    assert BOX3D.compute(*_cols(TRUTH, pred)) == pytest.approx(0.75, abs=1e-12)
    assert ORIGINAL.compute(*_cols(TRUTH, pred)) == pytest.approx(1.0, abs=1e-12)


def test_the_score_is_the_mean_over_ten_iou_thresholds() -> None:
    # a car shifted 1 along its heading: IoU 12/20 = 0.6, a hit above 0.5 and 0.55 only (> is
    # strict at 0.6): 2 of 10 thresholds
    truth = [_with(1, CAR)]
    pred = [_with(1, "1 0 0 2 4 2 0 car")]
    assert BOX3D.compute(*_cols(truth, pred)) == pytest.approx(0.2, abs=1e-12)
    # the same box turned 90°: IoU 1/3, no threshold
    turned = [_with(1, f"0 0 0 2 4 2 {1.5707963267948966} car")]
    assert BOX3D.compute(*_cols(truth, turned)) == pytest.approx(0.0)


def test_duplicates_and_confidence_order() -> None:
    # two true cars in one sample, three predictions: the exact copy of car A at 0.9, a second
    # copy of car A at 0.8 (its best box is taken: a false positive), car B at 0.3.
    # precision 1, 1/2, 2/3 at recall 1/2, 1/2, 1 → envelope 1, 2/3, 2/3 → AP 1/2 + 1/2 · 2/3
    truth = [f"{_with(1, CAR)} {_with(1, CAR_FAR)}"]
    pred = [f"{_with(0.9, CAR)} {_with(0.8, CAR)} {_with(0.3, CAR_FAR)}"]
    assert BOX3D.compute(*_cols(truth, pred)) == pytest.approx(0.5 + 1 / 3, abs=1e-12)
    # the duplicate ranked last costs nothing: AP 1
    pred = [f"{_with(0.9, CAR)} {_with(0.1, CAR)} {_with(0.3, CAR_FAR)}"]
    assert BOX3D.compute(*_cols(truth, pred)) == pytest.approx(1.0, abs=1e-12)


def test_the_wrong_class_is_a_miss_and_classes_without_true_boxes_have_no_ap() -> None:
    truth = [_with(1, CAR)]
    assert BOX3D.compute(*_cols(truth, [_with(1, CAR.replace("car", "truck"))])) == 0.0
    # a bus where no sample has one: no AP for bus; car AP 1
    pred = [f"{_with(1, CAR)} {_with(0.9, '50 50 0 3 10 3 0 bus')}"]
    assert BOX3D.compute(*_cols(truth, pred)) == pytest.approx(1.0)


def test_the_originals_number_is_undefined_for_a_sample_without_true_boxes() -> None:
    from pytest_mlebench.graders.errors import GraderError

    with pytest.raises(GraderError, match="no box"):
        ORIGINAL.compute(*_cols([_with(1, CAR), ""], ["", ""]))
    # ours pools: the empty sample's predictions are false positives of their class
    pred = [_with(0.5, CAR), _with(0.9, CAR)]
    assert BOX3D.compute(*_cols([_with(1, CAR), ""], pred)) == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("cell", "reason"),
    [
        ("1 0 0 0 2 4 2 car", "has 8 values, not whole groups of nine"),
        (f"{_with(1, CAR)} 0.5", "has 10 values"),
        ("1 0 0 0 2 4 2 0 truck 1 0 0 0 2 x 2 0 car", "not a number"),
        ("nan 0 0 0 2 4 2 0 car", "finite"),
        ("1 0 0 0 2 4 inf 0 car", "finite"),
        ("1 0 0 0 -2 4 2 0 car", "not positive"),
        ("1 0 0 0 2 0 2 0 car", "not positive"),
        ("1 0 0 0 2 4 2 0 Car", "names the class 'Car'"),
        ("1 0 0 0 2 4 2 0 3", "names the class '3'; the classes are animal, bicycle"),
    ],
)
def test_a_cell_that_is_not_valid_groups_of_nine_is_refused(cell: str, reason: str) -> None:
    found = box3d_rule(*_cols(TRUTH, [TRUTH[0], cell]))
    assert found is not None
    row, message = found
    assert row == 1
    assert reason in message


def test_valid_cells_pass_the_rule() -> None:
    assert box3d_rule(*_cols(TRUTH, [TRUTH[1], ""])) is None
