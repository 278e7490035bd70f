"""Grade one submission: validation first, then the metric, then the medal.

:class:`GradeReport` carries mle-bench's 16 keys with the same names and meaning, plus
``invalid_reason``. Grading never raises for a bad submission; it returns an invalid report with a
reason a person can act on. A broken answers file is the competition's fault and raises.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench import graders
from pytest_mlebench.medals import medal_for
from pytest_mlebench.registry import Competition
from pytest_mlebench.timestamps import utc_timestamp


@dataclass(frozen=True)
class GradeReport:
    """The grade of one submission (mle-bench's keys, plus ``invalid_reason``)."""

    competition_id: str
    score: float | None
    gold_threshold: float
    silver_threshold: float
    bronze_threshold: float
    median_threshold: float
    any_medal: bool
    gold_medal: bool
    silver_medal: bool
    bronze_medal: bool
    above_median: bool
    submission_exists: bool
    valid_submission: bool
    is_lower_better: bool
    created_at: str
    submission_path: str
    invalid_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def medal(self) -> str | None:
        for name in ("gold", "silver", "bronze"):
            if getattr(self, f"{name}_medal"):
                return name
        return None


def grade_submission(submission: Path, competition: Competition, answers: Path) -> GradeReport:
    """Grade ``submission`` against ``answers`` and award a medal from the leaderboard."""
    exists = submission.exists()
    if exists:
        result = graders.score_submission(submission, answers, competition.submission)
    else:
        result = graders.ScoreResult.invalid(f"no submission file at {submission}")
    return build_report(competition, submission, exists, result)


def build_report(
    competition: Competition, submission: Path, exists: bool, result: graders.ScoreResult
) -> GradeReport:
    thresholds = competition.thresholds
    award = (
        medal_for(result.score, thresholds) if result.valid and result.score is not None else None
    )
    medal = award.medal if award else None
    return GradeReport(
        competition_id=competition.id,
        score=result.score if result.valid else None,
        gold_threshold=thresholds.gold,
        silver_threshold=thresholds.silver,
        bronze_threshold=thresholds.bronze,
        median_threshold=thresholds.median,
        any_medal=medal is not None,
        gold_medal=medal == "gold",
        silver_medal=medal == "silver",
        bronze_medal=medal == "bronze",
        above_median=bool(award and award.above_median),
        submission_exists=exists,
        valid_submission=result.valid,
        is_lower_better=competition.lower_is_better,
        created_at=utc_timestamp(),
        submission_path=str(submission),
        invalid_reason=result.reason,
    )
