"""Hand-made run records for the report tests (no pytest run needed)."""

from __future__ import annotations

from typing import Any

from pytest_mlebench.medals import Thresholds
from pytest_mlebench.records.grade_report import GradeReport
from pytest_mlebench.records.run_record import RunRecord

THRESHOLDS = Thresholds(gold=0.9, silver=0.8, bronze=0.7, median=0.5, lower_is_better=False)


def grade(competition_id: str, score: float | None, percentile: float | None = None) -> GradeReport:
    """A grade against :data:`THRESHOLDS`; ``score=None`` is an invalid submission.

    ``percentile=None`` for a valid score leaves it out, as records of version 1 do.
    """
    path = f"/runs/{competition_id}/submission.csv"
    created_at = "2026-01-01T00:00:00+00:00"
    if score is None:
        return GradeReport.invalid(
            competition_id,
            "missing column 'label'",
            THRESHOLDS,
            lower_is_better=False,
            submission_exists=True,
            submission_path=path,
            created_at=created_at,
        )
    return GradeReport.scored(
        competition_id,
        score,
        THRESHOLDS,
        lower_is_better=False,
        percentile=percentile,
        submission_path=path,
        created_at=created_at,
    )


def record(
    competition_id: str,
    seed: int,
    score: float | None = 0.5,
    *,
    outcome: str = "passed",
    agent: str = "dummy",
    splits: tuple[str, ...] = ("lite",),
    finished_at: str = "2026-01-01T10:00:00+00:00",
    run_id: str | None = None,
    session_id: str = "s1",
    graded: bool = True,
    percentile: float | None = None,
    complexity: str = "low",
    modality: str = "tabular",
    sandbox: str = "local",
    reason: str | None = None,
    **extra: Any,
) -> RunRecord:
    """One run record; ``graded=False`` leaves ``grade`` empty (errors, skips)."""
    return RunRecord(
        session_id=session_id,
        run_id=run_id or f"{competition_id}-s{seed}-{agent}-{session_id}",
        test_id=f"test_bench.py::test_competition[{competition_id}-s{seed}]",
        competition_id=competition_id,
        seed=seed,
        agent=agent,
        outcome=outcome,  # type: ignore[arg-type]
        reason=reason,
        sandbox=sandbox,
        isolated=sandbox != "local",
        started_at="2026-01-01T09:00:00+00:00",
        finished_at=finished_at,
        grade=grade(competition_id, score, percentile) if graded and outcome != "skipped" else None,
        splits=list(splits),
        complexity=complexity,
        modality=modality,
        **extra,
    )
