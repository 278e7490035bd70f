"""The --mle-require gate over grade reports."""

from __future__ import annotations

from dataclasses import replace

import pytest

from pytest_mlebench.gate import gate_failure
from pytest_mlebench.grading import GradeReport

BASE = GradeReport(
    competition_id="toy",
    score=0.75,
    gold_threshold=0.9,
    silver_threshold=0.8,
    bronze_threshold=0.7,
    median_threshold=0.5,
    any_medal=True,
    gold_medal=False,
    silver_medal=False,
    bronze_medal=True,
    above_median=True,
    submission_exists=True,
    valid_submission=True,
    is_lower_better=False,
    created_at="now",
    submission_path="s.csv",
)
INVALID = replace(
    BASE,
    score=None,
    valid_submission=False,
    any_medal=False,
    bronze_medal=False,
    above_median=False,
    invalid_reason="missing column 'label'",
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
        (replace(BASE, above_median=False), "above-median", "not above the leaderboard median"),
        (INVALID, "gold", "invalid submission"),
    ],
)
def test_gate(report: GradeReport, require: str, failure: str | None) -> None:
    result = gate_failure(report, require)  # type: ignore[arg-type]
    if failure is None:
        assert result is None
    else:
        assert result is not None and failure in result
