"""Grade a run's submission copies on the host, after the sandbox stopped, with the run's grader.

Each copy goes through :func:`~pytest_mlebench.grading.grade_submission`, the function that
grades the final submission, so a copy and the final file with the same bytes get the same score
and medal. The count is bounded by what the watcher kept (``--mle-submission-copies``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pytest_mlebench.anytime.copies import COPIES, read_copies
from pytest_mlebench.anytime.curve import CurvePoint, curve_block
from pytest_mlebench.grading import grade_submission
from pytest_mlebench.registry import Competition


def grade_copies(run_dir: Path, competition: Competition, answers: Path) -> list[CurvePoint]:
    """The run's copies (``submission_copies/``), each graded against ``answers``, in order."""
    points = []
    for entry in read_copies(run_dir):
        report = grade_submission(run_dir / COPIES / entry.file, competition, answers)
        points.append(
            CurvePoint(
                time_used=entry.time_used,
                score=report.score,
                valid=report.valid_submission,
                medal=report.medal,
                file=f"{COPIES}/{entry.file}",
            )
        )
    return points


def anytime_block(
    run_dir: Path,
    competition: Competition,
    answers: Path,
    marks: Sequence[tuple[float, str]],
) -> dict[str, Any] | None:
    """The record's ``anytime`` block of the run in ``run_dir``; ``None`` when it kept no copy."""
    points = grade_copies(run_dir, competition, answers)
    return curve_block(points, marks) if points else None
