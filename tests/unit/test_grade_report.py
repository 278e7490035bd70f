"""The grade model: what a submission earns, its record form, mle-bench's form, old records."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import pytest

from pytest_mlebench.graders import ScoreResult
from pytest_mlebench.grading import build_report
from pytest_mlebench.medals import NO_AWARD, Award, Thresholds, thresholds_for
from pytest_mlebench.records.grade_report import GradeReport
from pytest_mlebench.records.mlebench_grade import GRADE_KEYS, grade_json, mlebench_report
from pytest_mlebench.records.requirement import requirement_failure
from pytest_mlebench.records.run_record import RECORD_VERSION, RunRecord, read_records
from pytest_mlebench.registry import Competition
from pytest_mlebench.report.rerun import select_pairs
from pytest_mlebench.report.summary_json import load_summary

HIGHER = Thresholds(gold=0.9, silver=0.8, bronze=0.7, median=0.5, lower_is_better=False)
LOWER = Thresholds(gold=0.1, silver=0.2, bronze=0.3, median=0.5, lower_is_better=True)
CREATED = "2026-01-01T00:00:00+00:00"


def graded(thresholds: Thresholds, exists: bool, result: ScoreResult) -> GradeReport:
    competition = cast(
        Competition,
        SimpleNamespace(
            id="toy",
            thresholds=thresholds,
            lower_is_better=thresholds.lower_is_better,
            leaderboard_scores=(),
        ),
    )
    return build_report(competition, Path("s.csv"), exists, result)


CASES = {
    "gold": (HIGHER, True, ScoreResult(valid=True, score=0.95)),
    "silver": (HIGHER, True, ScoreResult(valid=True, score=0.85)),
    "bronze at the threshold": (HIGHER, True, ScoreResult(valid=True, score=0.7)),
    "above the median": (HIGHER, True, ScoreResult(valid=True, score=0.6)),
    "at the median": (HIGHER, True, ScoreResult(valid=True, score=0.5)),
    "invalid": (HIGHER, True, ScoreResult.invalid("missing column 'label'")),
    "missing": (HIGHER, False, ScoreResult.invalid("no submission file at s.csv")),
    "lower is better, gold": (LOWER, True, ScoreResult(valid=True, score=0.05)),
    "lower is better, bronze": (LOWER, True, ScoreResult(valid=True, score=0.25)),
    "lower is better, worse than the median": (LOWER, True, ScoreResult(valid=True, score=0.9)),
}
EXPECTED: dict[str, tuple[Award, float | None, bool, bool, str | None]] = {
    # award, score, submission exists, valid, reason
    "gold": (Award("gold", True), 0.95, True, True, None),
    "silver": (Award("silver", True), 0.85, True, True, None),
    "bronze at the threshold": (Award("bronze", True), 0.7, True, True, None),
    "above the median": (Award(None, True), 0.6, True, True, None),
    "at the median": (NO_AWARD, 0.5, True, True, None),
    "invalid": (NO_AWARD, None, True, False, "missing column 'label'"),
    "missing": (NO_AWARD, None, False, False, "no submission file at s.csv"),
    "lower is better, gold": (Award("gold", True), 0.05, True, True, None),
    "lower is better, bronze": (Award("bronze", True), 0.25, True, True, None),
    "lower is better, worse than the median": (NO_AWARD, 0.9, True, True, None),
}


@pytest.mark.parametrize("case", list(CASES))
def test_what_each_submission_earns(case: str) -> None:
    thresholds, exists, result = CASES[case]
    report = graded(thresholds, exists, result)
    award, score, submission_exists, valid, reason = EXPECTED[case]
    assert report.award == award and report.medal == award.medal
    assert (report.score, report.submission_exists, report.valid_submission) == (
        score,
        submission_exists,
        valid,
    )
    assert report.invalid_reason == reason
    assert report.thresholds == thresholds
    assert (report.competition_id, report.submission_path) == ("toy", "s.csv")


@pytest.mark.parametrize("case", list(CASES))
def test_record_form_and_mlebench_form_read_back_to_the_same_grade(case: str) -> None:
    report = graded(*CASES[case])
    assert GradeReport.from_dict(json.loads(json.dumps(report.to_dict()))) == report
    assert GradeReport.from_dict(mlebench_report(report)) == report


def test_record_form_nests_award_and_thresholds() -> None:
    report = graded(*CASES["silver"])
    form = report.to_dict()
    assert form["award"] == {"medal": "silver", "above_median": True}
    assert form["thresholds"] == {
        "gold": 0.9,
        "silver": 0.8,
        "bronze": 0.7,
        "median": 0.5,
        "lower_is_better": False,
    }
    assert not any(key.endswith("_medal") for key in form)


SILVER_MLEBENCH = {
    "competition_id": "toy",
    "score": 0.85,
    "gold_threshold": 0.9,
    "silver_threshold": 0.8,
    "bronze_threshold": 0.7,
    "median_threshold": 0.5,
    "any_medal": True,
    "gold_medal": False,
    "silver_medal": True,
    "bronze_medal": False,
    "above_median": True,
    "submission_exists": True,
    "valid_submission": True,
    "is_lower_better": False,
    "created_at": CREATED,
    "submission_path": "s.csv",
    "invalid_reason": None,
}
# The same submission, invalid, as the flat form says it.
INVALID_FLAT = {
    "score": None,
    "any_medal": False,
    "silver_medal": False,
    "above_median": False,
    "valid_submission": False,
    "invalid_reason": "missing column 'label'",
}


def test_mlebench_form_has_the_original_keys_in_order() -> None:
    report = GradeReport.scored(
        "toy", 0.85, HIGHER, lower_is_better=False, submission_path="s.csv", created_at=CREATED
    )
    assert grade_json(report) == json.dumps(SILVER_MLEBENCH, indent=2)
    assert tuple(SILVER_MLEBENCH)[:16] == GRADE_KEYS


def test_mlebench_form_of_invalid_and_lower_is_better() -> None:
    invalid = mlebench_report(graded(*CASES["missing"]))
    assert invalid["score"] is None and invalid["submission_exists"] is False
    assert not any(invalid[key] for key in GRADE_KEYS if key.endswith(("medal", "median")))
    lower = mlebench_report(graded(*CASES["lower is better, bronze"]))
    assert (lower["is_lower_better"], lower["bronze_medal"], lower["any_medal"]) == (
        True,
        True,
        True,
    )
    assert lower["gold_medal"] is False and lower["gold_threshold"] == 0.1


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"score": 0.5}, "invalid submission has no score"),
        ({"award": Award("bronze", True)}, "earns nothing"),
        ({"valid_submission": True, "score": 0.5}, "does not exist cannot be valid"),
    ],
)
def test_inconsistent_grades_are_rejected(changes: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        replace(graded(*CASES["missing"]), **changes)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"competition_id": "toy"}, "not a grade report"),
        (
            {**graded(*CASES["gold"]).to_dict(), "award": {"medal": "gold"}},
            "malformed.*above_median",
        ),
        (
            {**graded(*CASES["gold"]).to_dict(), "award": {"medal": "tin", "above_median": 1}},
            "unknown medal 'tin'",
        ),
        ({k: v for k, v in SILVER_MLEBENCH.items() if k != "gold_threshold"}, "gold_threshold"),
    ],
)
def test_malformed_grades_say_what_is_wrong(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        GradeReport.from_dict(data)


def record_fields(grade: dict[str, Any] | None, seed: int = 0) -> dict[str, Any]:
    return {
        "session_id": "old",
        "run_id": f"toy-s{seed}-0000",
        "test_id": f"test_bench.py::test_competition[toy-s{seed}]",
        "competition_id": "toy",
        "seed": seed,
        "agent": "dummy",
        "outcome": "passed",
        "reason": None,
        "sandbox": "local",
        "isolated": False,
        "started_at": CREATED,
        "finished_at": CREATED,
        "grade": grade,
        "splits": ["lite"],
        "complexity": "low",
        "modality": "tabular",
    }


def test_record_round_trip_keeps_the_grade() -> None:
    record = RunRecord(**{**record_fields(None), "grade": graded(*CASES["silver"])})
    text = record.to_json()
    assert json.loads(text)["grade"]["award"] == {"medal": "silver", "above_median": True}
    assert json.loads(text)["version"] == RECORD_VERSION == 2
    assert RunRecord.from_dict(json.loads(text)) == record


def test_results_file_of_version_1_is_read_into_the_model(tmp_path: Path) -> None:
    # Lines as earlier versions wrote them: the grade in mle-bench's flat form.
    old = tmp_path / "results.jsonl"
    lines = [
        {**record_fields(SILVER_MLEBENCH, seed=0), "version": 1},
        {**record_fields({**SILVER_MLEBENCH, **INVALID_FLAT}, seed=1), "version": 1},
    ]
    old.write_text("".join(json.dumps(line, sort_keys=True) + "\n" for line in lines))
    silver, invalid = read_records([old])
    assert silver.grade == GradeReport.scored(
        "toy", 0.85, HIGHER, lower_is_better=False, submission_path="s.csv", created_at=CREATED
    )
    assert silver.version == RECORD_VERSION
    assert invalid.grade is not None and invalid.grade.award == NO_AWARD
    assert invalid.grade.invalid_reason == "missing column 'label'"
    assert json.loads(silver.to_json())["grade"] == silver.grade.to_dict()
    # What --mle-from and --mle-baseline make of such a file.
    summary = load_summary(old)
    entry = summary["competitions"][0]
    assert [run["medal"] for run in entry["runs"]] == ["silver", None]
    assert entry["best_medal"] == "silver" and entry["thresholds"]["silver_threshold"] == 0.8
    assert summary["agents"]["dummy"]["overall"]["metrics"]["any_medal"]["per_seed"] == {
        "0": 100.0,
        "1": 0.0,
    }
    assert select_pairs(summary, {"no-medal"}, "dummy") == {("toy", 1)}
    assert select_pairs(summary, {"invalid"}, "dummy") == {("toy", 1)}


def test_summary_json_of_an_earlier_version_still_selects_reruns(tmp_path: Path) -> None:
    # A summary.json run entry as earlier versions wrote it (same schema as today's).
    old_run = {
        "seed": 0,
        "outcome": "failed",
        "reason": "score 0.6 earns no medal; bronze needs 0.7",
        "graded": True,
        "score": 0.6,
        "medal": None,
        "submission_exists": True,
        "valid_submission": True,
        "above_median": True,
        "gold_medal": False,
        "silver_medal": False,
        "bronze_medal": False,
        "any_medal": False,
        "timed_out": False,
    }
    summary = {
        "schema": "pytest-mlebench/summary/1",
        "competitions": [
            {"agent": "dummy", "competition_id": "toy", "runs": [old_run]},
            {
                "agent": "dummy",
                "competition_id": "gilded",
                "runs": [{**old_run, "medal": "gold", "any_medal": True, "gold_medal": True}],
            },
        ],
    }
    path = tmp_path / "summary.json"
    path.write_text(json.dumps(summary))
    loaded = load_summary(path)
    assert select_pairs(loaded, {"no-medal"}, "dummy") == {("toy", 0)}
    assert select_pairs(loaded, {"failed"}, "dummy") == {("toy", 0), ("gilded", 0)}


BOARD = (0.95, 0.9, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2)


def _competition(board: tuple[float, ...]) -> Competition:
    thresholds = thresholds_for(board, lower_is_better=False) if board else None
    return cast(
        Competition,
        SimpleNamespace(
            id="toy", thresholds=thresholds, lower_is_better=False, leaderboard_scores=board
        ),
    )


def test_a_valid_grade_carries_its_leaderboard_percentile() -> None:
    report = build_report(_competition(BOARD), Path("s.csv"), True, ScoreResult(True, 0.9))
    assert report.percentile == 80.0  # beats 7 of the 10 entries and ties 2: (7 + 2/2) / 10
    assert GradeReport.from_dict(report.to_dict()) == report


def test_without_a_leaderboard_a_valid_grade_has_no_medal_and_says_why() -> None:
    report = build_report(_competition(()), Path("s.csv"), True, ScoreResult(True, 0.99))
    assert report.valid_submission and report.score == 0.99
    assert (report.medal, report.percentile, report.has_leaderboard) == (None, None, False)
    flat = mlebench_report(report)
    assert flat["gold_threshold"] is None and flat["median_threshold"] is None
    assert flat["any_medal"] is False and flat["is_lower_better"] is False
    assert GradeReport.from_dict(report.to_dict()) == report
    assert GradeReport.from_dict(flat) == report
    assert requirement_failure(report, "bronze") == (
        "no leaderboard: no medal; bronze cannot be reached (score 0.99)"
    )
    assert requirement_failure(report, "valid") is None


def test_a_grade_of_the_first_nested_form_still_reads() -> None:
    """Records written before ``lower_is_better`` and ``percentile`` joined the grade."""
    report = build_report(_competition(BOARD), Path("s.csv"), True, ScoreResult(True, 0.9))
    older = report.to_dict()
    del older["lower_is_better"], older["percentile"]
    again = GradeReport.from_dict(older)
    assert again.lower_is_better is False and again.percentile is None
    assert again.medal == report.medal
