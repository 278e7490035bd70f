"""Box mAP over PredictionString cells: hand-worked VOC 2010 case, the original number, the rule."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from pytest_mlebench.graders import Columns, get_metric
from pytest_mlebench.graders.metrics.detection import box_string_rule, step_average_precision

BOX_MAP = get_metric("box-map")
ORIGINAL = get_metric("box-map-sklearn")
# Row A, an image: two true opacities; predictions at 0.9 (= T1), 0.8 (IoU 0.9 with T1, 0 with
# T2) and 0.3 (nowhere). Row B, a study: truth typical; predictions typical 0.6, negative 0.4.
TRUTH = ["opacity 1 0 0 10 10 opacity 1 20 20 30 30", "typical 1 0 0 1 1"]
PRED = [
    "opacity 0.9 0 0 10 10 opacity 0.8 0 0 10 9 opacity 0.3 50 50 60 60",
    "typical 0.6 0 0 1 1 negative 0.4 0 0 1 1",
]


def _cols(truth: list[str], pred: list[str]) -> tuple[Columns, Columns]:
    return Columns.of({"t": truth}), Columns.of({"p": pred})


def test_voc2010_map_over_the_answers_labels() -> None:
    # opacity (VOC rule): 0.9 TP; 0.8's best box T1 is taken → FP; 0.3 FP; 2 true boxes:
    # precision 1, 1/2, 1/3 at recall 1/2 → AP 1/2. typical: AP 1. negative has no true box:
    # left out. mAP = 3/4
    assert BOX_MAP.compute(*_cols(TRUTH, PRED)) == pytest.approx(0.75, abs=1e-12)


def test_the_originals_number() -> None:
    # opacity pairs: (1, .9) (0, .8) (0, .3), unclaimed T2 (1, 0), row B's filler (0, 0):
    # scikit-learn AP = 1/2·1 + 1/2·2/5 = 0.7. typical: row A's filler (0, 0) and (1, .6): 1.
    assert ORIGINAL.compute(*_cols(TRUTH, PRED)) == pytest.approx(0.85, abs=1e-12)


@pytest.mark.parametrize("seed", range(12))
def test_the_step_average_precision_is_scikit_learns_to_the_last_bit(seed: int) -> None:
    sklearn_metrics = pytest.importorskip("sklearn.metrics")
    rng = np.random.default_rng(seed)
    size = int(rng.integers(1, 400))
    hits = rng.random(size) < rng.random()
    hits[int(rng.integers(size))] = True  # the original's pairs always hold a true box
    # ties and the zeros of unclaimed boxes and fillers, as the original's pairs have them
    scores = np.round(rng.random(size), int(rng.integers(1, 4))) * (rng.random(size) < 0.8)
    expected = float(sklearn_metrics.average_precision_score(hits.astype(int), scores))
    assert step_average_precision(hits, scores) == expected


def test_the_iou_threshold_is_a_parameter() -> None:
    # at 0.95 the 0.9 box (IoU 1) still matches; at IoU above 1 nothing does
    assert BOX_MAP.compute(*_cols(TRUTH, PRED), iou_threshold=0.95) == pytest.approx(0.75)
    assert BOX_MAP.compute(*_cols(TRUTH, PRED), iou_threshold=1.0) == pytest.approx(0.0)


def test_perfect_and_empty_predictions() -> None:
    assert BOX_MAP.compute(*_cols(TRUTH, TRUTH)) == pytest.approx(1.0)
    assert BOX_MAP.compute(*_cols(TRUTH, ["", ""])) == pytest.approx(0.0)


@pytest.mark.parametrize(
    ("cell", "reason"),
    [
        ("opacity 0.5 0 0 1", "has 5 values, not whole groups of six"),
        ("opacity high 0 0 1 1", "not a number"),
        ("opacity 0.5 2 0 1 1", "x_max < x_min"),
        ("opacity inf 0 0 1 1", "finite"),
    ],
)
def test_a_cell_that_is_not_groups_of_six_is_refused(cell: str, reason: str) -> None:
    found = box_string_rule(*_cols(["none 1 0 0 1 1"] * 2, ["none 1 0 0 1 1", cell]))
    assert found is not None
    row, message = found
    assert row == 1
    assert reason in message


def test_valid_cells_pass_the_rule() -> None:
    assert box_string_rule(*_cols(TRUTH, [*PRED[:1], ""])) is None


COCO_MISREAD = get_metric("box-map-coco-corners-as-sizes")
# vinbigdata: row 1, class 0: true (100,100,110,110), predicted (100,100,120,120): IoU 100/400.
# Read as x, y, width, height they become (100,100,210,210) and (100,100,220,220): IoU
# 110²/120² ≈ 0.84. Row 2: "No finding" (14) with the dummy box, predicted as 14.0.
VIN_TRUTH = ["0 1 100 100 110 110", "14 1 0 0 1 1"]
VIN_PRED = ["0 0.9 100 100 120 120", "14.0 0.5 0 0 1 1"]


def test_class_ids_compare_as_numbers_and_corner_boxes_as_corners() -> None:
    # class 0: IoU 0.25 < 0.4, AP 0; class 14 (spelt 14.0): AP 1 → 0.5
    cols = _cols(VIN_TRUTH, VIN_PRED)
    assert BOX_MAP.compute(*cols, iou_threshold=0.4) == pytest.approx(0.5, abs=1e-12)


def test_the_original_vinbigdata_number_reads_corners_as_sizes() -> None:
    # misread, class 0 matches (IoU ≈ 0.84), but that box is the answers' first (id 0), which
    # the original never counts as found: class 0 AP 0, class 14 AP 1 → 0.5
    cols = _cols(VIN_TRUTH, VIN_PRED)
    assert COCO_MISREAD.compute(*cols) == pytest.approx(0.5, abs=1e-12)
    # in the other order class 14's box is the first: 0.5 again, from the other class
    swapped = _cols(VIN_TRUTH[::-1], VIN_PRED[::-1])
    assert COCO_MISREAD.compute(*swapped) == pytest.approx(0.5, abs=1e-12)


def test_the_first_true_box_is_never_found_so_a_perfect_file_scores_below_1() -> None:
    # class 0: two boxes, the first (id 0) never found; its detection is a false positive ranked
    # first (ties keep the answers' order): precision 0.5 up to recall 0.5, 51 of 101 points →
    # 0.5 * 51 / 101; class 1: AP 1. pycocotools gives 0.6262376 for this file too.
    truth = ["0 1 0 0 10 10", "0 1 0 0 10 10", "1 1 5 5 20 20"]
    perfect = ["0 0.9 0 0 10 10", "0 0.9 0 0 10 10", "1 0.8 5 5 20 20"]
    value = COCO_MISREAD.compute(*_cols(truth, perfect))
    assert value == pytest.approx((0.5 * 51 / 101 + 1) / 2, abs=1e-12)
    # five boxes of class 0 in the first row: recall stops at 4/5 (pycocotools: 0.8207921)
    row = " ".join(f"0 1 {10 * i} {10 * i} {10 * i + 8} {10 * i + 8}" for i in range(5))
    guess = " ".join(f"0 0.{9 - i} {10 * i} {10 * i} {10 * i + 8} {10 * i + 8}" for i in range(5))
    many = COCO_MISREAD.compute(*_cols([row, "3 1 1 1 9 9"], [guess, "3 0.5 1 1 9 9"]))
    assert many == pytest.approx(0.8207920792079207, abs=1e-12)


def test_coco_keeps_the_most_confident_predictions_per_row_and_label() -> None:
    # the hit has the lowest confidence of three: kept with max_per_label 3, dropped with 2
    # (the first row's class-1 box is the answers' first, never found: AP 0 for class 1)
    truth = ["1 1 90 90 95 95", "0 1 0 0 10 10"]
    pred = ["", "0 0.9 50 50 60 60 0 0.8 70 70 80 80 0 0.1 0 0 10 10"]
    # kept: precision 1/3 at recall 1 → 1/3 at every recall point; mean with class 1's 0
    value = COCO_MISREAD.compute(*_cols(truth, pred), max_per_label=3)
    assert value == pytest.approx(1 / 6, abs=1e-12)
    assert COCO_MISREAD.compute(*_cols(truth, pred), max_per_label=2) == pytest.approx(0.0)


def test_the_metrics_import_neither_scikit_learn_nor_pandas() -> None:
    # scikit-learn (with scipy and pandas) costs seconds to import; only the original siim-covid
    # metric needs it, so the metrics module must not import it for every grading
    code = (
        "import sys, pytest_mlebench.graders.metrics; "
        "print(sorted(m for m in ('sklearn', 'pandas', 'scipy') if m in sys.modules))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=os.environ
    )
    assert done.stdout.strip() == "[]"
