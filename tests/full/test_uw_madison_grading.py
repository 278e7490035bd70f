"""UW-Madison's grading on hand-worked cases: Dice, 3-D Hausdorff, the row key, the original's.

Every case goes through the competition's own spec (``config.yaml``): rows are paired by ``id``
and ``class``, masks are row-major runs of each slice, and the score is
``0.4 · mean Dice + 0.6 · (1 − mean normalised Hausdorff distance)``.
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd
import pytest

from pytest_mlebench.definition import load_competition
from pytest_mlebench.graders import ScoreResult, score_submission

COMPETITION = load_competition(
    Path(__file__).resolve().parents[2] / "competitions" / "uw-madison-gi-tract-image-segmentation"
)
ROOT3 = math.sqrt(3.0)


def _answers(rows: list[tuple[str, str, str]], width: int = 4, height: int = 4) -> pd.DataFrame:
    """Answer rows ``(id, class, mask)``, with the slice size and the id's case-day and slice."""
    frame = pd.DataFrame(rows, columns=["id", "class", "segmentation"])
    return frame.assign(
        image_width=width,
        image_height=height,
        organ=frame["class"],
        case_day=frame["id"].str.split("_slice_").str[0],
        slice=frame["id"].str.rsplit("_", n=1).str[-1],
    )


def _grade(
    tmp_path: Path, answers: pd.DataFrame, predicted: list[str], original: bool = False
) -> ScoreResult | float | None:
    answers.to_csv(tmp_path / "answers.csv", index=False)
    submission = answers[["id", "class"]].assign(predicted=predicted)
    submission.to_csv(tmp_path / "submission.csv", index=False)
    if original:
        grader = COMPETITION.original_grader
        assert grader is not None
        return grader.score(tmp_path / "submission.csv", tmp_path / "answers.csv")
    return score_submission(
        tmp_path / "submission.csv", tmp_path / "answers.csv", COMPETITION.submission
    )


def _score(tmp_path: Path, answers: pd.DataFrame, predicted: list[str]) -> float:
    result = _grade(tmp_path, answers, predicted)
    assert isinstance(result, ScoreResult) and result.valid, result
    assert result.score is not None
    return result.score


def test_a_pixel_three_columns_off_scores_its_distance_in_the_unit_cube(tmp_path: Path) -> None:
    # one 4 x 4 slice: the truth at (row 0, column 0), the prediction at (row 0, column 3)
    answers = _answers([("case1_day1_slice_0001", "stomach", "1 1")])
    # Dice 0; the columns are scaled by the width 4: distance 3/4, over the diagonal √3
    assert _score(tmp_path, answers, ["4 1"]) == pytest.approx(0.6 * (1 - 0.75 / ROOT3))


def test_rows_and_volumes_empty_on_both_sides_are_skipped(tmp_path: Path) -> None:
    answers = _answers(
        [("case1_day1_slice_0001", "stomach", "1 2"), ("case1_day1_slice_0001", "small_bowel", "")]
    )
    # stomach: Dice 2·1/(2+1) = 2/3, distance 1/4 (column 1 to column 0); small bowel skipped
    expected = 0.4 * (2 / 3) + 0.6 * (1 - 0.25 / ROOT3)
    assert _score(tmp_path, answers, ["1 1", ""]) == pytest.approx(expected)


def test_an_organ_missed_or_invented_counts_dice_0_and_distance_1(tmp_path: Path) -> None:
    answers = _answers(
        [("case1_day1_slice_0001", "stomach", "1 4"), ("case1_day1_slice_0001", "large_bowel", "")]
    )
    perfect_stomach_and_invented_bowel = _score(tmp_path, answers, ["1 4", "9 2"])
    assert perfect_stomach_and_invented_bowel == pytest.approx(0.4 * 0.5 + 0.6 * 0.5)
    assert _score(tmp_path, answers, ["", ""]) == 0.0


def test_slices_stack_with_depth_one_scaled_by_the_slice_count(tmp_path: Path) -> None:
    answers = _answers(
        [("case1_day1_slice_0001", "stomach", "1 1"), ("case1_day1_slice_0002", "stomach", "")]
    )
    # the prediction sits on the next slice: z distance 1 of 2 slices
    expected = 0.4 * (0 + 0) / 2 + 0.6 * (1 - 0.5 / ROOT3)
    assert _score(tmp_path, answers, ["", "1 1"]) == pytest.approx(expected)


def test_masks_count_along_rows(tmp_path: Path) -> None:
    # 4 wide, 2 high: pixel 2 is (row 0, column 1), a quarter of the width from pixel 1
    answers = _answers([("case1_day1_slice_0001", "stomach", "1 1")], width=4, height=2)
    assert _score(tmp_path, answers, ["2 1"]) == pytest.approx(0.6 * (1 - 0.25 / ROOT3))
    # the original reads down the columns: pixel 2 is (row 1, column 0), half the height away
    original = _grade(tmp_path, answers, ["2 1"], original=True)
    assert original == pytest.approx(0.6 * (1 - 0.5 / ROOT3))


def test_the_original_merges_the_organs_into_one_volume(tmp_path: Path) -> None:
    answers = _answers(
        [
            ("case1_day1_slice_0001", "stomach", "1 1"),
            ("case1_day1_slice_0001", "large_bowel", "4 1"),
        ]
    )
    # the organs swapped: Dice 0 and distance 3/4 for each organ here ...
    assert _score(tmp_path, answers, ["4 1", "1 1"]) == pytest.approx(0.6 * (1 - 0.75 / ROOT3))
    # ... while their union is predicted exactly: distance 0 there
    assert _grade(tmp_path, answers, ["4 1", "1 1"], original=True) == pytest.approx(0.6)


def test_the_original_gives_distance_1_past_ten_times_the_true_voxels(tmp_path: Path) -> None:
    answers = _answers([("case1_day1_slice_0001", "stomach", "1 1")])
    # pixels 1-11 (rows 0 and 1, then row 2 to column 2): Dice 2/12; the farthest from (0, 0)
    # is (1, 3), at √((1/4)² + (3/4)²) = √10 / 4
    ours = 0.4 * (2 / 12) + 0.6 * (1 - math.sqrt(10) / 4 / ROOT3)
    assert _score(tmp_path, answers, ["1 11"]) == pytest.approx(ours)
    assert _grade(tmp_path, answers, ["1 11"], original=True) == pytest.approx(0.4 * (2 / 12))


def test_the_original_pairs_the_organs_of_a_slice_in_file_order(tmp_path: Path) -> None:
    answers = _answers(
        [
            ("case1_day1_slice_0001", "stomach", "1 1"),
            ("case1_day1_slice_0001", "large_bowel", "4 1"),
        ]
    )
    answers.to_csv(tmp_path / "answers.csv", index=False)
    # right masks, the organs listed the other way round
    swapped = pd.DataFrame(
        {"id": ["case1_day1_slice_0001"] * 2, "class": ["large_bowel", "stomach"]}
    ).assign(predicted=["4 1", "1 1"])
    swapped.to_csv(tmp_path / "submission.csv", index=False)
    ours = score_submission(
        tmp_path / "submission.csv", tmp_path / "answers.csv", COMPETITION.submission
    )
    assert ours.valid and ours.score == 1.0
    grader = COMPETITION.original_grader
    assert grader is not None
    original = grader.score(tmp_path / "submission.csv", tmp_path / "answers.csv")
    # the stomach's row gets the bowel's mask and back: Dice 0 each; their union is exact
    assert original == pytest.approx(0.6)


def test_rows_are_paired_by_id_and_class_in_any_order(tmp_path: Path) -> None:
    answers = _answers(
        [
            ("case1_day1_slice_0001", "stomach", "1 1"),
            ("case1_day1_slice_0001", "large_bowel", "4 1"),
        ]
    )
    answers.to_csv(tmp_path / "answers.csv", index=False)
    pd.DataFrame(
        {
            "predicted": ["4 1", "1 1"],
            "class": ["large_bowel", "stomach"],
            "id": ["case1_day1_slice_0001"] * 2,
        }
    ).to_csv(tmp_path / "submission.csv", index=False)
    result = score_submission(
        tmp_path / "submission.csv", tmp_path / "answers.csv", COMPETITION.submission
    )
    assert result.valid and result.score == 1.0


@pytest.mark.parametrize(
    ("rows", "reason"),
    [
        (
            [("case1_day1_slice_0001", "stomach", "1 1")],
            "missing, e.g. ('case1_day1_slice_0001', 'large_bowel')",
        ),
        (
            [
                ("case1_day1_slice_0001", "stomach", "1 1"),
                ("case1_day1_slice_0001", "stomach", ""),
                ("case1_day1_slice_0001", "large_bowel", ""),
            ],
            "duplicate (id, class) pair ('case1_day1_slice_0001', 'stomach')",
        ),
        (
            [("case1_day1_slice_0001", "stomach", "1 1"), ("case1_day1_slice_0001", "colon", "")],
            "not in the test set, e.g. ('case1_day1_slice_0001', 'colon')",
        ),
        (
            [
                ("case1_day1_slice_0001", "stomach", "1 1"),
                ("case1_day1_slice_0001", "large_bowel", "16 2"),
            ],
            "ends past the image's 16 pixels",
        ),
    ],
    ids=["missing row", "repeated row", "unknown class", "run past the slice"],
)
def test_bad_rows_are_invalid_with_the_row_key(
    tmp_path: Path, rows: list[tuple[str, str, str]], reason: str
) -> None:
    answers = _answers(
        [("case1_day1_slice_0001", "stomach", "1 1"), ("case1_day1_slice_0001", "large_bowel", "")]
    )
    answers.to_csv(tmp_path / "answers.csv", index=False)
    pd.DataFrame(rows, columns=["id", "class", "predicted"]).to_csv(
        tmp_path / "submission.csv", index=False
    )
    result = score_submission(
        tmp_path / "submission.csv", tmp_path / "answers.csv", COMPETITION.submission
    )
    assert not result.valid and result.reason is not None
    assert reason in result.reason, result.reason


def test_a_file_without_the_class_column_is_told_to_add_it(tmp_path: Path) -> None:
    answers = _answers([("case1_day1_slice_0001", "stomach", "1 1")])
    answers.to_csv(tmp_path / "answers.csv", index=False)
    answers[["id"]].assign(predicted="1 1").to_csv(tmp_path / "submission.csv", index=False)
    result = score_submission(
        tmp_path / "submission.csv", tmp_path / "answers.csv", COMPETITION.submission
    )
    assert not result.valid and result.reason is not None and "'class'" in result.reason
