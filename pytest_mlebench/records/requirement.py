"""The medal requirement (``--mle-require``): what a graded run must reach to pass. Pure.

The levels, worst first, are ``none``, ``valid``, ``above-median`` and then the medals from the
lowest to the highest (:data:`LEVELS`). A run that falls short *fails* (the agent's outcome); the
reason says what it got and what the level needs.
"""

from __future__ import annotations

from pytest_mlebench.medals import MEDALS
from pytest_mlebench.records.grade_report import GradeReport
from pytest_mlebench.values.require_levels import REQUIRE_LEVELS

LEVELS: tuple[str, ...] = REQUIRE_LEVELS


def requirement_failure(report: GradeReport, require: str) -> str | None:
    """Why ``report`` falls short of the level ``require``, or ``None`` when it reaches it.

    Raises:
        ValueError: For a level that is not one of :data:`LEVELS`.
    """
    if require not in LEVELS:
        raise ValueError(f"unknown requirement level {require!r} (known: {', '.join(LEVELS)})")
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
    medal = next(m for m in MEDALS if m == require)
    if report.award.reaches(medal):
        return None
    threshold = report.thresholds.of(medal)
    got = report.medal or "no medal"
    return f"score {report.score:.5g} earns {got}; {require} needs {threshold:.5g}"
