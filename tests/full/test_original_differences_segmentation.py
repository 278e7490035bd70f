"""The worked examples of how the segmentation competitions' grading differs from the original's."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from pytest_mlebench.definition import load_competition
from pytest_mlebench.graders import score_submission

COMPETITIONS = Path(__file__).resolve().parents[2] / "competitions"


def test_tgs_salt_an_empty_prediction_on_salt_scores_its_coverage_there(tmp_path: Path) -> None:
    competition = load_competition(COMPETITIONS / "tgs-salt-identification-challenge")
    covered = 8161  # 80.0 % of the 10,201 pixels of a 101 x 101 image
    answers = pd.DataFrame({"id": ["1a2b3c4d5e", "f0e1d2c3b4"], "rle_mask": [f"1 {covered}", ""]})
    submission = answers.assign(rle_mask=["", ""])
    answers.to_csv(tmp_path / "answers.csv", index=False)
    submission.to_csv(tmp_path / "submission.csv", index=False)
    ours = score_submission(
        tmp_path / "submission.csv", tmp_path / "answers.csv", competition.submission
    )
    assert ours.valid and ours.score == 0.5  # salt missed: 0; no salt, none predicted: 1
    grader = competition.original_grader
    assert grader is not None
    original = grader.score(tmp_path / "submission.csv", tmp_path / "answers.csv")
    # IoU 0.80005 there: above 0.50 ... 0.80, seven of ten thresholds
    assert original == pytest.approx((0.7 + 1) / 2)


def test_tgs_salt_a_run_past_the_image_is_invalid_with_its_row(tmp_path: Path) -> None:
    competition = load_competition(COMPETITIONS / "tgs-salt-identification-challenge")
    answers = pd.DataFrame({"id": ["1a2b3c4d5e", "f0e1d2c3b4"], "rle_mask": ["1 5", ""]})
    answers.to_csv(tmp_path / "answers.csv", index=False)
    answers.assign(rle_mask=["1 5", "10200 9"]).to_csv(tmp_path / "submission.csv", index=False)
    result = score_submission(
        tmp_path / "submission.csv", tmp_path / "answers.csv", competition.submission
    )
    assert not result.valid and result.reason is not None
    assert "f0e1d2c3b4" in result.reason and "past the image" in result.reason


def test_contrails_an_empty_cell_is_an_empty_mask_and_a_run_past_the_image_is_named(
    tmp_path: Path,
) -> None:
    competition = load_competition(
        COMPETITIONS / "google-research-identify-contrails-reduce-global-warming"
    )
    ids = ["1000216489776414077", "1000603527582775543"]
    answers = pd.DataFrame({"record_id": ids, "encoded_pixels": ["1 10", "-"]})
    answers.to_csv(tmp_path / "answers.csv", index=False)
    answers.assign(encoded_pixels=["1 10", ""]).to_csv(tmp_path / "submission.csv", index=False)
    spec = competition.submission
    ours = score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", spec)
    assert ours.valid and ours.score == 1.0  # the original crashes on the empty cell
    answers.assign(encoded_pixels=["1 10", "65530 10"]).to_csv(
        tmp_path / "submission.csv", index=False
    )
    past = score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", spec)
    assert not past.valid and past.reason is not None
    assert ids[1] in past.reason and "65536 pixels" in past.reason
