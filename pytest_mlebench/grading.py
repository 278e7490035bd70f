"""Grade one submission: validation first, then the metric, then the medal.

The result is a :class:`~pytest_mlebench.records.grade_report.GradeReport` (score, validity, award,
thresholds, and the original-compatible score where the original MLE-bench grades otherwise).
Grading never raises for a bad submission; it returns an invalid report with a reason a person
can act on. A broken answers file is the competition's fault and raises.
"""

from __future__ import annotations

from pathlib import Path

import pytest_mlebench.graders as graders
from pytest_mlebench.percentile import leaderboard_percentile
from pytest_mlebench.records.grade_report import GradeReport
from pytest_mlebench.registry import Competition
from pytest_mlebench.timestamps import utc_timestamp


def grade_submission(submission: Path, competition: Competition, answers: Path) -> GradeReport:
    """Grade ``submission`` against ``answers`` and award a medal from the leaderboard.

    Where the original MLE-bench grades the competition otherwise (``original_grader:`` in its
    config), the report also carries the original-compatible score and medal.
    """
    exists = submission.exists()
    left = None if exists else left_behind(submission)
    if exists:
        result = graders.score_submission(submission, answers, competition.submission)
    elif left is not None:
        exists = True  # the agent did leave something there: invalid, not missing
        result = graders.ScoreResult.invalid(f"{submission.name} {left}")
    else:
        result = graders.ScoreResult.invalid(f"no submission file at {submission}")
    report = build_report(competition, submission, exists, result)
    original = competition.original_grader
    if original is None:
        return report
    return report.with_original(original.name, original.score(submission, answers))


def left_behind(submission: Path) -> str | None:
    """Why the copy-out left the agent's submission in the sandbox (its ``.omitted.txt`` note,
    written by the harness: a link, a FIFO, over the size guard), or ``None``: there was none."""
    note = submission.with_name(submission.name + ".omitted.txt")
    try:
        with note.open("rb") as handle:
            text = handle.read(1000).decode("utf-8", errors="replace").strip()
    except OSError:
        return None
    return text or "was not copied out of the sandbox"


def build_report(
    competition: Competition, submission: Path, exists: bool, result: graders.ScoreResult
) -> GradeReport:
    """The grade of ``result`` (a validated, perhaps scored, submission) for ``competition``."""
    created_at = utc_timestamp()
    lower = competition.lower_is_better
    if exists and result.valid and result.score is not None:
        return GradeReport.scored(
            competition.id,
            result.score,
            competition.thresholds,
            lower_is_better=lower,
            percentile=leaderboard_percentile(result.score, competition.leaderboard_scores, lower),
            submission_path=str(submission),
            created_at=created_at,
        )
    return GradeReport.invalid(
        competition.id,
        result.reason or "the grader returned no score",
        competition.thresholds,
        lower_is_better=lower,
        submission_exists=exists,
        submission_path=str(submission),
        created_at=created_at,
    )


__all__ = ["GradeReport", "build_report", "grade_submission"]
