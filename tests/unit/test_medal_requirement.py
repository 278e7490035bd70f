"""The --mle-require gate over grade reports."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pytest_mlebench.medals import Thresholds
from pytest_mlebench.records.grade_report import GradeReport
from pytest_mlebench.records.requirement import requirement_failure

HIGHER = Thresholds(gold=0.9, silver=0.8, bronze=0.7, median=0.5, lower_is_better=False)
LOWER = Thresholds(gold=0.1, silver=0.2, bronze=0.3, median=0.5, lower_is_better=True)


def scored(score: float, thresholds: Thresholds = HIGHER) -> GradeReport:
    return GradeReport.scored(
        "toy",
        score,
        thresholds,
        lower_is_better=thresholds.lower_is_better,
        submission_path="s.csv",
        created_at="now",
    )


BASE = scored(0.75)
INVALID = GradeReport.invalid(
    "toy",
    "missing column 'label'",
    HIGHER,
    lower_is_better=False,
    submission_exists=True,
    submission_path="s.csv",
    created_at="now",
)
MISSING = replace(INVALID, submission_exists=False, invalid_reason="no submission file")


@pytest.mark.parametrize(
    ("report", "require", "failure"),
    [
        (BASE, "none", None),
        (INVALID, "none", None),
        (BASE, "valid", None),
        (INVALID, "valid", "invalid submission: missing column 'label'"),
        (MISSING, "valid", "no submission"),
        (BASE, "above-median", None),
        (BASE, "bronze", None),
        (BASE, "silver", "earns bronze; silver needs 0.8"),
        (BASE, "gold", "earns bronze; gold needs 0.9"),
        (scored(0.4), "above-median", "score 0.4 is not above the leaderboard median 0.5"),
        (scored(0.4), "bronze", "earns no medal; bronze needs 0.7"),
        (INVALID, "gold", "invalid submission"),
        (scored(0.85), "silver", None),
        (scored(0.95), "silver", None),
        (scored(0.15, LOWER), "gold", "score 0.15 earns silver; gold needs 0.1"),
        (scored(0.15, LOWER), "silver", None),
    ],
)
def test_gate(report: GradeReport, require: str, failure: str | None) -> None:
    result = requirement_failure(report, require)  # type: ignore[arg-type]
    if failure is None:
        assert result is None
    else:
        assert result is not None and failure in result
