"""The medal gate: what a graded run must reach to pass (``--mle-require``). Pure."""

from __future__ import annotations

from pytest_mlebench.grade_report import GradeReport
from pytest_mlebench.values.require_levels import REQUIRE_LEVELS, Require


def gate_failure(report: GradeReport, require: Require) -> str | None:
    """Why ``report`` falls short of ``require``, or ``None`` when it passes."""
    if require not in REQUIRE_LEVELS:
        raise ValueError(f"unknown gate level {require!r}")
    if require == "none":
        return None
    if not report.submission_exists:
        return "no submission: the agent wrote no submission.csv"
    if not report.valid_submission:
        return f"invalid submission: {report.invalid_reason}"
    if require == "valid":
        return None
    if report.thresholds is None:
        return f"no leaderboard: no medal; {require} cannot be reached (score {report.score:.5g})"
    if require == "above-median":
        if report.award.above_median:
            return None
        median = report.thresholds.median
        return f"score {report.score:.5g} is not above the leaderboard median {median:.5g}"
    if report.award.reaches(require):  # the levels left are the medal names
        return None
    threshold = report.thresholds.of(require)
    got = report.medal or "no medal"
    return f"score {report.score:.5g} earns {got}; {require} needs {threshold:.5g}"
