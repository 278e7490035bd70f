"""Hand-made run records for the report tests (no pytest run needed)."""

from __future__ import annotations

from typing import Any

from pytest_mlebench.results import RunRecord

THRESHOLDS = {
    "gold_threshold": 0.9,
    "silver_threshold": 0.8,
    "bronze_threshold": 0.7,
    "median_threshold": 0.5,
}


def grade(competition_id: str, score: float | None, *, lower: bool = False) -> dict[str, Any]:
    """A 16-key grade report; medals from :data:`THRESHOLDS` (higher is better)."""
    valid = score is not None
    value = score if score is not None else float("-inf")
    medal = None
    if not lower:
        medal = next(
            (m for m in ("gold", "silver", "bronze") if value >= THRESHOLDS[f"{m}_threshold"]),
            None,
        )
    return {
        "competition_id": competition_id,
        "score": score,
        **THRESHOLDS,
        "any_medal": medal is not None,
        "gold_medal": medal == "gold",
        "silver_medal": medal == "silver",
        "bronze_medal": medal == "bronze",
        "above_median": value > THRESHOLDS["median_threshold"],
        "submission_exists": True,
        "valid_submission": valid,
        "is_lower_better": lower,
        "created_at": "2026-01-01T00:00:00+00:00",
        "submission_path": f"/runs/{competition_id}/submission.csv",
    }


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
        reason=None,
        sandbox="local",
        isolated=False,
        started_at="2026-01-01T09:00:00+00:00",
        finished_at=finished_at,
        grade=grade(competition_id, score) if graded and outcome != "skipped" else None,
        splits=list(splits),
        complexity="low",
        modality="tabular",
        **extra,
    )
