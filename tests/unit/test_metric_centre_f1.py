"""kuzushiji-recognition's centre-in-box F1: a hand-worked table, one match per prediction."""

from __future__ import annotations

import pytest

from pytest_mlebench.graders import Columns, get_metric
from pytest_mlebench.graders.metrics.points import point_rule

CENTRE_F1 = get_metric("centre-f1")
# page 1: boxes A (10,10 20×20), A (50,50 10×10), I (0,0 5×5); predictions A(15,15) takes the
# first box, A(16,16) is left over, I(2,2) takes the third, U(3,3) has no box, A(55,55) the
# second: TP 3, FP 2. Page 2: no characters, one prediction: FP 1. Page 3: the point (10,5)
# lies on the box's right edge, not inside it: FP 1, FN 1.
TRUTH = ["U+3042 10 10 20 20 U+3042 50 50 10 10 U+3044 0 0 5 5", "", "U+3042 0 0 10 10"]
PRED = ["U+3042 15 15 U+3042 16 16 U+3044 2 2 U+3046 3 3 U+3042 55 55", "U+3042 1 1", "U+3042 10 5"]


def _cols(truth: list[str], pred: list[str]) -> tuple[Columns, Columns]:
    return Columns.of({"t": truth}), Columns.of({"p": pred})


def test_micro_f1_over_pages() -> None:
    # 2·TP / (2·TP + FP + FN) = 6 / (6 + 4 + 1)
    assert CENTRE_F1.compute(*_cols(TRUTH, PRED)) == pytest.approx(6 / 11, abs=1e-12)


def test_one_prediction_serves_one_box() -> None:
    # two overlapping boxes of one character, one point inside both: TP 1, FN 1 → 2/3
    truth = ["U+3042 0 0 10 10 U+3042 2 2 10 10"]
    assert CENTRE_F1.compute(*_cols(truth, ["U+3042 5 5"])) == pytest.approx(2 / 3, abs=1e-12)


def test_the_label_must_match() -> None:
    assert CENTRE_F1.compute(*_cols(["U+3042 0 0 10 10"], ["U+3044 5 5"])) == 0.0


def test_answers_as_points_one_pixel_in_score_one() -> None:
    assert CENTRE_F1.compute(*_cols(TRUTH[:1], ["U+3042 11 11 U+3042 51 51 U+3044 1 1"])) == 1.0


@pytest.mark.parametrize(
    ("cell", "reason"),
    [("U+3042 1", "has 2 values"), ("U+3042 x 1", "not a number"), ("U+3042 nan 1", "finite")],
)
def test_a_cell_that_is_not_label_x_y_triples_is_refused(cell: str, reason: str) -> None:
    found = point_rule(*_cols(["", ""], ["", cell]))
    assert found is not None
    assert found[0] == 1 and reason in found[1]
