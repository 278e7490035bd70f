"""One grade in mle-bench's own form: its 16 keys (plus our ``invalid_reason``).

Made from a :class:`~pytest_mlebench.records.grade_report.GradeReport` here and nowhere else:
each run's ``grade.json``, ``mlebench grade-sample``'s output and the reports' per-run entries
(:mod:`pytest_mlebench.report.mlebench_compat`) all use :func:`mlebench_report`.
"""

from __future__ import annotations

import json
from typing import Any

from pytest_mlebench.medals import MEDALS
from pytest_mlebench.records.grade_report import GradeReport

# mle-bench's 16 keys of one grade report, in its order.
GRADE_KEYS = (
    "competition_id",
    "score",
    *(f"{medal}_threshold" for medal in MEDALS),
    "median_threshold",
    "any_medal",
    *(f"{medal}_medal" for medal in MEDALS),
    "above_median",
    "submission_exists",
    "valid_submission",
    "is_lower_better",
    "created_at",
    "submission_path",
)


def mlebench_report(grade: GradeReport) -> dict[str, Any]:
    """mle-bench's 16 keys of ``grade``, then ``invalid_reason`` (the original has no reason), and
    the original-compatible score and medal where the original grades otherwise.

    Without a leaderboard the four thresholds are ``null`` and no medal is set.
    """
    limits, medal = grade.thresholds, grade.medal
    return {
        "competition_id": grade.competition_id,
        "score": grade.score,
        **{f"{m}_threshold": limits.of(m) if limits else None for m in MEDALS},
        "median_threshold": limits.median if limits else None,
        "any_medal": medal is not None,
        **{f"{m}_medal": medal == m for m in MEDALS},
        "above_median": grade.award.above_median,
        "submission_exists": grade.submission_exists,
        "valid_submission": grade.valid_submission,
        "is_lower_better": grade.lower_is_better,
        "created_at": grade.created_at,
        "submission_path": grade.submission_path,
        "invalid_reason": grade.invalid_reason,
        **_original_keys(grade),
    }


def _original_keys(grade: GradeReport) -> dict[str, Any]:
    """The original-compatible score and medal, for a competition the original grades otherwise
    (``docs/mlebench.md``); nothing elsewhere, so the 16 keys stay as they are."""
    if not grade.original_differs:
        return {}
    return {
        "original_grader": grade.original_grader,
        "original_score": grade.original_score,
        "original_medal": grade.original_medal,
    }


def grade_json(grade: GradeReport) -> str:
    """One grade report as ``grade-sample`` prints it and ``grade.json`` holds it."""
    return json.dumps(mlebench_report(grade), indent=2)
