"""Terminal summary lines: skipped competitions per split, and runs without a leaderboard."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pytest_mlebench.records.grade_report import GradeReport
from pytest_mlebench.records.verdict import Flag, IntegrityReport
from pytest_mlebench.summary import run_line, skipped_lines, totals_line
from tests.report.builders import record


def test_skipped_competitions_are_counted_per_split_with_the_fix() -> None:
    records = [
        replace(record("a", 0, None, outcome="skipped"), grade=None),
        replace(record("b", 0, None, outcome="skipped"), grade=None),
        record("c", 0, 0.95),
    ]
    assert skipped_lines(records, Path("/data")) == [
        "split lite: 2 of 3 competitions skipped, their data is not prepared; prepare them "
        "with: mlebench prepare --split lite --data-dir /data"
    ]
    assert skipped_lines(records[2:], Path("/data")) == []


def test_a_valid_run_without_a_leaderboard_says_so() -> None:
    grade = GradeReport.scored(
        "a", 0.9, None, lower_is_better=False, submission_path="s.csv", created_at="now"
    )
    line = run_line(replace(record("a", 0, 0.9), grade=grade))
    assert "medal n/a" in line and "(no leaderboard: no medal)" in line


def test_a_withheld_medal_counts_nowhere_in_the_terminal_lines() -> None:
    verdict = IntegrityReport(
        mode="strict",
        flags=(Flag("process", "editor", "high", "an editor ran"),),
        medal_withheld=True,
        earned_medal="gold",
    )
    withheld = record("toy-a", 0, 0.95, integrity=verdict)
    assert totals_line([withheld]).endswith("any medal 0 (0.0 %)")
    assert " medal none " in run_line(withheld) and "WITHHELD (earned gold)" in run_line(withheld)
