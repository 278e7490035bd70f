"""3d-object-detection-for-autonomous-vehicles: the split by log, its tables and files, the README's
worked example of our pooled mAP against the original's per-sample mean, and bad groups refused.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pytest_mlebench.definition import load_competition
from pytest_mlebench.graders import score_submission
from tests.full.shapes import lyft_3d_object_detection as shape
from tests.lite.harness import PreparedLite, prepare_from_shape

CID = "3d-object-detection-for-autonomous-vehicles"
FOLDER = Path(__file__).resolve().parents[2] / "competitions" / CID


@pytest.fixture(scope="module")
def prepared(tmp_path_factory: pytest.TempPathFactory) -> PreparedLite:
    competition = load_competition(FOLDER)
    return prepare_from_shape(competition, shape, tmp_path_factory.mktemp("lyft"))


def _table(prepared: PreparedLite, side: str, name: str) -> list[dict[str, object]]:
    records: list[dict[str, object]] = json.loads(
        (prepared.public / f"{side}_data" / f"{name}.json").read_text("utf-8")
    )
    return records


def test_logs_split_as_the_original_and_everything_follows_them(prepared: PreparedLite) -> None:
    from sklearn.model_selection import train_test_split

    raw_logs = json.loads((prepared.public.parent / "raw/train_data/log.json").read_text("utf-8"))
    tokens = [log["token"] for log in raw_logs]
    expected_train, expected_test = train_test_split(tokens, test_size=0.2, random_state=0)
    logs = {
        side: [log["token"] for log in _table(prepared, side, "log")] for side in ("train", "test")
    }
    assert set(logs["train"]) == set(expected_train)
    assert set(logs["test"]) == set(expected_test)
    for side in ("train", "test"):
        scenes = _table(prepared, side, "scene")
        assert {scene["log_token"] for scene in scenes} == set(logs[side])
        (only_map,) = _table(prepared, side, "map")
        assert set(only_map["log_tokens"]) == set(logs[side])  # each side its own logs
        samples = {sample["token"] for sample in _table(prepared, side, "sample")}
        assert {sample["scene_token"] for sample in _table(prepared, side, "sample")} <= {
            scene["token"] for scene in scenes
        }
        data = _table(prepared, side, "sample_data")
        assert {datum["sample_token"] for datum in data} == samples
        calibrations = {record["token"] for record in _table(prepared, side, "calibrated_sensor")}
        assert {datum["calibrated_sensor_token"] for datum in data} == calibrations
        poses = {record["token"] for record in _table(prepared, side, "ego_pose")}
        assert {datum["ego_pose_token"] for datum in data} == poses
        for datum in data:
            folder = "lidar" if datum["fileformat"] == "bin" else "images"
            assert (
                prepared.public / f"{side}_{folder}" / Path(str(datum["filename"])).name
            ).is_file()
        assert (prepared.public / f"{side}_maps" / shape.MAP).is_file()
    answers = pd.read_csv(prepared.answers, dtype=str)
    assert set(answers["Id"]) == {sample["token"] for sample in _table(prepared, "test", "sample")}


def test_test_annotations_stay_private(prepared: PreparedLite) -> None:
    assert not (prepared.public / "test_data" / "sample_annotation.json").exists()
    assert not (prepared.public / "test_data" / "instance.json").exists()
    test_samples = {sample["token"] for sample in _table(prepared, "test", "sample")}
    notes = _table(prepared, "train", "sample_annotation")
    assert notes and not {note["sample_token"] for note in notes} & test_samples
    instances = {instance["token"] for instance in _table(prepared, "train", "instance")}
    assert instances == {note["instance_token"] for note in notes}
    lidar_bytes = {path.read_bytes() for path in (prepared.public / "test_lidar").iterdir()}
    raw = prepared.public.parent / "raw" / "train_lidar"
    assert lidar_bytes <= {path.read_bytes() for path in raw.iterdir()}  # copied unchanged
    sample = pd.read_csv(prepared.public / "sample_submission.csv", keep_default_na=False)
    assert (sample["PredictionString"] == "").all()


IDS = [
    "4c1c8a2f0b7e6d5a3928171605f4e3d2c1b0a9988776655443322110ffeeddcc",
    "9f8e7d6c5b4a39281706f5e4d3c2b1a00112233445566778899aabbccddeeff",
]
CAR = "2742.15 673.16 -18.65 1.834 4.609 1.648 2.619 car"
CAR_2 = "2760.0 690.0 -18.6 1.9 4.5 1.7 -0.54 car"
PEDESTRIAN = "2750.0 700.0 -18.9 0.7 0.8 1.8 1.2 pedestrian"
STRAY = "2730.0 660.0 -18.9 0.7 0.8 1.8 0.3 pedestrian"


def _files(tmp_path: Path, predictions: list[str]) -> tuple[Path, Path]:
    answers = pd.DataFrame(
        {"Id": IDS, "PredictionString": [f"1.0 {CAR}", f"1.0 {CAR_2} 1.0 {PEDESTRIAN}"]}
    )
    answers.to_csv(tmp_path / "answers.csv", index=False)
    pd.DataFrame({"Id": IDS[::-1], "PredictionString": predictions[::-1]}).to_csv(
        tmp_path / "submission.csv", index=False
    )
    return tmp_path / "submission.csv", tmp_path / "answers.csv"


def test_a_pedestrian_where_there_is_none_costs_here_not_in_the_original(tmp_path: Path) -> None:
    # the README's example: every true box predicted exactly, plus a confident pedestrian in the
    # first sample, which holds only a car. Pooled, the pedestrian class ranks it first: precision
    # 1/2 at recall 1, AP 1/2; car AP 1: (1 + 1/2) / 2 = 0.75 at every threshold. Per sample, the
    # first sample's classes are {car}: the stray box is never looked at, 1.0 for both samples.
    submission, answers = _files(
        tmp_path, [f"0.9 {STRAY} 0.8 {CAR}", f"0.7 {CAR_2} 0.6 {PEDESTRIAN}"]
    )
    competition = load_competition(FOLDER, leaderboard=False)
    result = score_submission(submission, answers, competition.submission)
    assert result.valid, result.reason
    assert result.score == pytest.approx(0.75, abs=1e-12)
    assert competition.original_grader is not None
    assert competition.original_grader.score(submission, answers) == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    ("cell", "reason"),
    [
        (f"1.0 {CAR} 0.5", "not whole groups of nine"),
        (f"1.0 {CAR.replace('1.834', 'nan')}", "not a finite number"),
        (f"1.0 {CAR.replace('1.648', '-1.648')}", "not positive"),
        (f"1.0 {CAR.replace('car', 'van')}", "names the class 'van'"),
    ],
)
def test_a_bad_group_is_invalid_with_the_samples_id(tmp_path: Path, cell: str, reason: str) -> None:
    submission, answers = _files(tmp_path, [f"1.0 {CAR}", cell])
    competition = load_competition(FOLDER, leaderboard=False)
    result = score_submission(submission, answers, competition.submission)
    assert not result.valid
    assert result.reason is not None and IDS[1][:32] in result.reason and reason in result.reason


def test_the_score_does_not_depend_on_the_order_of_boxes_within_a_cell(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    boxes = [f"0.7 {CAR_2}", f"0.6 {PEDESTRIAN}", f"0.2 {STRAY}"]
    scores = []
    for _ in range(3):
        order = rng.permutation(len(boxes))
        submission, answers = _files(tmp_path, [f"1.0 {CAR}", " ".join(boxes[i] for i in order)])
        competition = load_competition(FOLDER, leaderboard=False)
        scores.append(score_submission(submission, answers, competition.submission).score)
    assert scores[0] is not None and scores == pytest.approx([scores[0]] * 3)


def test_the_record_carries_the_originals_score_and_medal(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    from pytest_mlebench.grading import grade_submission

    answers = pd.read_csv(prepared.answers, dtype=str, keep_default_na=False)
    shuffled = answers.sample(frac=1.0, random_state=3)[["PredictionString", "Id"]]
    shuffled.to_csv(tmp_path / "perfect.csv", index=False)
    report = grade_submission(tmp_path / "perfect.csv", prepared.competition, prepared.answers)
    assert report.valid_submission, report.invalid_reason
    assert report.medal == "gold"
    assert report.to_dict()["original"] == {
        "grader": "box3d-map-per-sample over 1 column",
        "score": pytest.approx(1.0, abs=1e-12),
        "medal": "gold",
    }
