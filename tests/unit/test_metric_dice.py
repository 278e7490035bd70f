"""Global Dice of run-length masks (contrails), on hand-worked cases."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pytest_mlebench.graders import SubmissionSpec, score_submission
from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics import get_metric
from pytest_mlebench.graders.metrics.base import Columns

DICE = get_metric("contrails-global-dice")


def columns(*masks: object) -> Columns:
    return Columns.of({"encoded_pixels": np.array(masks, dtype=object)})


@pytest.mark.parametrize(
    ("truth", "prediction", "expected"),
    [
        (("1 10",), ("1 10",), 1.0),
        (("1 10",), ("-",), 0.0),
        (("1 10",), ("6 10",), 2 * 5 / 20),
        # pooled over images: 2·(10 + 0 + 0) / ((10 + 30) + (10 + 10)); an empty pair adds nothing
        (("1 10", "1 30", "-"), ("1 10", "", "1 10"), 20 / 60),
        (("1 10", "-"), ("1 10", np.nan), 1.0),
    ],
)
def test_global_dice_pools_pixels_over_images(
    truth: tuple[object, ...], prediction: tuple[object, ...], expected: float
) -> None:
    assert DICE.compute(columns(*truth), columns(*prediction)) == pytest.approx(expected)


def test_answers_without_any_mask_cannot_be_scored() -> None:
    with pytest.raises(GraderError, match="no mask pixel"):
        DICE.compute(columns("-", "-"), columns("-", "-"))


def test_a_run_past_the_image_is_named_by_row() -> None:
    assert DICE.check_rows is not None
    found = DICE.check_rows(columns("-", "-"), columns("1 3 10 5", "65530 10"))
    assert found is not None and found[0] == 1 and "65536 pixels" in found[1]


MEAN_DICE = get_metric("mean-dice")


def sized(masks: tuple[object, ...], width: int = 10, height: int = 10) -> Columns:
    return Columns.of(
        {
            "encoding": np.array(masks, dtype=object),
            "width_pixels": [width] * len(masks),
            "height_pixels": [height] * len(masks),
        }
    )


def test_mean_dice_averages_images_and_both_empty_scores_one() -> None:
    truth = sized(("1 10", "", "1 10"))
    prediction = columns("1 10", np.nan, "6 10")
    assert MEAN_DICE.compute(truth, prediction) == pytest.approx((1 + 1 + 0.5) / 3)


def test_mean_dice_bounds_each_image_by_its_own_size() -> None:
    assert MEAN_DICE.check_rows is not None
    assert MEAN_DICE.check_rows(sized(("", "")), columns("1 100", "")) is None
    found = MEAN_DICE.check_rows(sized(("", "")), columns("1 100", "95 7"))
    assert found is not None and found[0] == 1 and "100 pixels" in found[1]


F_HALF = get_metric("mean-f0.5")


@pytest.mark.parametrize(
    ("truth", "prediction", "expected"),
    [
        ("1 10", "1 10", 1.0),
        ("1 10", "", 0.0),
        # TP 5, FN 5, FP 0: 1.25·5 / (6.25 + 1.25) = 5/6 (precision weighs more)
        ("1 10", "1 5", 6.25 / 7.5),
        # TP 10, FN 0, FP 10: 12.5 / (12.5 + 10)
        ("1 10", "1 20", 12.5 / 22.5),
    ],
)
def test_f_half_weighs_precision_over_recall(truth: str, prediction: str, expected: float) -> None:
    assert F_HALF.compute(sized((truth,)), columns(prediction)) == pytest.approx(expected)


def test_f_half_needs_ink_in_the_answers() -> None:
    with pytest.raises(GraderError, match="no ink"):
        F_HALF.compute(sized(("",)), columns(""))


def test_a_mask_longer_than_the_csv_readers_block_is_graded(tmp_path: Path) -> None:
    # 150,000 runs of a slide of 10⁹ pixels: one cell of about 2.6 MB, past Arrow's 1 MB block
    starts = np.arange(150_000, dtype=np.int64) * 6_000 + 1
    mask = " ".join(f"{start} 3000" for start in starts.tolist())
    assert len(mask) > 2**21
    (tmp_path / "answers.csv").write_text(
        f"id,encoding,width_pixels,height_pixels\nslide,{mask},40000,25000\nempty,,10,10\n"
    )
    (tmp_path / "submission.csv").write_text(f"id,predicted\nempty,\nslide,{mask}\n")
    spec = SubmissionSpec(
        "id",
        ("predicted",),
        "mean-dice",
        answer_columns=("encoding", "width_pixels", "height_pixels"),
    )
    result = score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", spec)
    assert result.valid and result.score == pytest.approx(1.0)
