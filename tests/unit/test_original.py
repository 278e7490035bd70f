"""The original-compatible score: declared in config, computed beside ours, kept in the record.

The worked case is ranzcr's: the original MLE-bench averages ROC-AUC over 9 of the 11 labels. A
submission that ranks the 9 perfectly and says 0.5 everywhere for the other 2 scores
(9 × 1.0 + 2 × 0.5) / 11 = 10/11 here and 1.0 there.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.graders import SubmissionSpec
from pytest_mlebench.grading import grade_submission
from pytest_mlebench.original import parse_original_grader
from pytest_mlebench.records.grade_report import GradeReport, OriginalGrade
from pytest_mlebench.records.mlebench_grade import grade_json
from pytest_mlebench.registry import Competition, load_registry

RANZCR = "ranzcr-clip-catheter-line-classification"
ORIGINAL_NINE = 9
NINE = "mean-column-roc-auc over 9 columns"


@pytest.fixture(scope="module")
def ranzcr() -> Competition:
    return load_registry().get(RANZCR)


def _answers(competition: Competition, path: Path) -> Path:
    labels = competition.submission.target_columns
    rows = [f"s{i}," + ",".join(str((i + j) % 2) for j in range(len(labels))) for i in range(4)]
    path.write_text(f"StudyInstanceUID,{','.join(labels)}\n" + "\n".join(rows) + "\n")
    return path


def _nine_right_two_flat(competition: Competition, path: Path, columns: int = 11) -> Path:
    """The 9 original labels predicted exactly, the other 2 at 0.5 (or left out)."""
    labels = competition.submission.target_columns[:columns]
    rows = [
        f"s{i},"
        + ",".join(str((i + j) % 2) if j < ORIGINAL_NINE else "0.5" for j in range(columns))
        for i in range(4)
    ]
    path.write_text(f"StudyInstanceUID,{','.join(labels)}\n" + "\n".join(rows) + "\n")
    return path


def test_ranzcr_declares_the_originals_nine_labels(ranzcr: Competition) -> None:
    original = ranzcr.original_grader
    assert original is not None
    assert original.spec.target_columns == ranzcr.submission.target_columns[:ORIGINAL_NINE]
    assert original.name == "mean-column-roc-auc over 9 columns"
    assert "CVC - Normal" in original.text and "Swan Ganz Catheter Present" in original.text


def test_the_worked_case_scores_ten_elevenths_here_and_one_there(
    ranzcr: Competition, tmp_path: Path
) -> None:
    answers = _answers(ranzcr, tmp_path / "answers.csv")
    report = grade_submission(_nine_right_two_flat(ranzcr, tmp_path / "s.csv"), ranzcr, answers)
    assert report.score == pytest.approx(10 / 11)
    assert report.medal is None
    assert report.original_grader == NINE
    assert report.to_dict()["original"] == {"grader": NINE, "score": 1.0, "medal": "gold"}
    assert report.original_score == pytest.approx(1.0)
    assert report.original_medal == "gold"
    again = GradeReport.from_dict(json.loads(json.dumps(report.to_dict())))
    assert again == report
    printed = json.loads(grade_json(report))
    assert printed["original_score"] == pytest.approx(1.0) and printed["original_medal"] == "gold"


def test_a_file_in_the_originals_nine_column_form_is_told_the_two_to_add(
    ranzcr: Competition, tmp_path: Path
) -> None:
    answers = _answers(ranzcr, tmp_path / "answers.csv")
    nine = _nine_right_two_flat(ranzcr, tmp_path / "nine.csv", columns=ORIGINAL_NINE)
    report = grade_submission(nine, ranzcr, answers)
    assert not report.valid_submission and report.invalid_reason is not None
    assert report.invalid_reason.startswith(
        "missing columns 'CVC - Normal', 'Swan Ganz Catheter Present': this file has the "
        "original MLE-bench's 9 target columns, but the competition's metric scores all 11"
    )
    assert "add 'CVC - Normal', 'Swan Ganz Catheter Present'" in report.invalid_reason
    # The original would have scored it: the record says so beside our invalid grade.
    assert report.original_score == pytest.approx(1.0) and report.original_medal == "gold"


def test_a_missing_file_has_no_original_score(ranzcr: Competition, tmp_path: Path) -> None:
    answers = _answers(ranzcr, tmp_path / "answers.csv")
    report = grade_submission(tmp_path / "absent.csv", ranzcr, answers)
    assert report.original_differs
    assert report.original_score is None and report.original_medal is None


def test_a_competition_graded_alike_carries_no_original_fields(tmp_path: Path) -> None:
    report = GradeReport.from_dict(
        {
            "competition_id": "x",
            "score": 0.5,
            "award": {"medal": None, "above_median": False},
            "thresholds": None,
            "lower_is_better": False,
            "submission_exists": True,
            "valid_submission": True,
            "invalid_reason": None,
            "created_at": "2026-01-01T00:00:00+00:00",
            "submission_path": "s.csv",
        }
    )
    assert not report.original_differs and report.original_score is None
    assert "original_score" not in json.loads(grade_json(report))
    with pytest.raises(ValueError, match="needs an original-compatible score"):
        OriginalGrade(grader=NINE, score=None, medal="gold")


SPEC = SubmissionSpec(id_column="id", target_columns=("a", "b"), metric="mean-column-roc-auc")


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ({"text": "x"}, "needs 'metric'"),
        ({"metric": "mean-column-roc-auc"}, "'text' must say how and why"),
        ({"metric": "no-such-metric", "text": "x"}, "unknown metric"),
        ({"metric": "mean-column-roc-auc", "columns": ["c"], "text": "x"}, "'c' is not one of"),
        ({"metric": "mean-column-roc-auc", "text": "x", "why": 1}, "unknown keys why"),
    ],
)
def test_a_malformed_original_grader_names_the_fix(section: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        parse_original_grader(section, SPEC, Path("c/config.yaml"))


def test_no_section_means_the_original_grades_as_we_do() -> None:
    assert parse_original_grader(None, SPEC, Path("config.yaml")) is None


def test_the_original_may_read_answer_columns_of_its_own() -> None:
    section = {
        "metric": "window-kl-divergence",
        "answer_columns": ["wa", "wb", "plogp", "windows"],
        "text": "scored per window",
    }
    grader = parse_original_grader(section, SPEC, Path("c/config.yaml"))
    assert grader is not None
    assert grader.spec.resolved_answer_columns == ("wa", "wb", "plogp", "windows")
    with pytest.raises(ConfigError, match="answer_columns must be a non-empty list"):
        parse_original_grader({**section, "answer_columns": "wa"}, SPEC, Path("c/config.yaml"))
    with pytest.raises(ConfigError, match="a constant and a window count"):
        parse_original_grader({**section, "answer_columns": ["wa"]}, SPEC, Path("c/config.yaml"))


def test_the_original_may_read_other_answer_columns() -> None:
    # tensorflow-speech: the original scores the label against the raw folder label
    spec = SubmissionSpec(id_column="fname", target_columns=("label",), metric="accuracy")
    section = {"metric": "accuracy", "answer_columns": ["folder_label"], "text": "x"}
    grader = parse_original_grader(section, spec, Path("c/config.yaml"))
    assert grader is not None
    assert grader.spec.target_columns == ("label",)
    assert grader.spec.resolved_answer_columns == ("folder_label",)


def test_malformed_original_answer_columns_name_the_fix() -> None:
    section = {"metric": "mean-column-roc-auc", "answer_columns": "a", "text": "x"}
    with pytest.raises(ConfigError, match="answer_columns must be a non-empty list"):
        parse_original_grader(section, SPEC, Path("c/config.yaml"))
