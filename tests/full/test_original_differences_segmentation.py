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


def test_hubmap_each_image_is_bounded_by_its_own_size(tmp_path: Path) -> None:
    competition = load_competition(COMPETITIONS / "hubmap-kidney-segmentation")
    answers = pd.DataFrame(
        {
            "id": ["2f6ecfcdf", "aaa6a05cc"],
            "encoding": ["1 10", ""],
            "width_pixels": [10, 4],
            "height_pixels": [10, 4],
        }
    )
    answers.to_csv(tmp_path / "answers.csv", index=False)
    spec = competition.submission
    submission = pd.DataFrame({"id": ["2f6ecfcdf", "aaa6a05cc"], "predicted": ["6 10", ""]})
    submission.to_csv(tmp_path / "submission.csv", index=False)
    ours = score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", spec)
    assert ours.valid and ours.score == pytest.approx((0.5 + 1) / 2)
    submission.assign(predicted=["1 100", "15 3"]).to_csv(tmp_path / "submission.csv", index=False)
    past = score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", spec)
    assert not past.valid and past.reason is not None
    assert "aaa6a05cc" in past.reason and "16 pixels" in past.reason


def test_hubmap_test_images_lose_their_glomerulus_polygons(tmp_path: Path) -> None:
    import importlib.util

    import numpy as np

    from pytest_mlebench.kaggle import extract_archives
    from tests.full.shapes import hubmap_kidney_segmentation as shape

    download, raw, public, private = (tmp_path / name for name in ("dl", "raw", "pub", "priv"))
    for folder in (download, public, private):
        folder.mkdir()
    shape.make_download(download, np.random.default_rng(0))
    extract_archives(download, raw)
    path = COMPETITIONS / "hubmap-kidney-segmentation" / "prepare.py"
    spec = importlib.util.spec_from_file_location("hubmap_prepare", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.prepare(raw, public, private)
    test_ids = pd.read_csv(private / "answers.csv", dtype=str)["id"]
    names = {path.name for path in (public / "test").iterdir()}
    assert names == {
        f"{i}{end}" for i in test_ids for end in (".tiff", "-anatomical-structure.json")
    }
    train_ids = pd.read_csv(public / "train.csv", dtype=str)["id"]
    assert all((public / "train" / f"{i}.json").is_file() for i in train_ids)


def test_vesuvius_rows_are_matched_by_id_and_runs_count_along_rows(tmp_path: Path) -> None:
    competition = load_competition(COMPETITIONS / "vesuvius-challenge-ink-detection")
    answers = pd.DataFrame({"Id": ["a"], "Predicted": ["1 10"], "width": [10], "height": [12]})
    answers.to_csv(tmp_path / "answers.csv", index=False)
    spec = competition.submission
    pd.DataFrame({"Id": ["a"], "Predicted": ["1 5"]}).to_csv(
        tmp_path / "submission.csv", index=False
    )
    ours = score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", spec)
    assert ours.valid and ours.score == pytest.approx(6.25 / 7.5)  # TP 5, FN 5: F0.5 = 5/6
    pd.DataFrame({"Id": ["b"], "Predicted": ["1 5"]}).to_csv(
        tmp_path / "submission.csv", index=False
    )
    wrong = score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", spec)
    assert not wrong.valid and wrong.reason is not None  # the original stops on an assert
