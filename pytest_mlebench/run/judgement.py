"""What a kind of run makes of its finished sandbox phase: the outcome, the reason, its results."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pytest_mlebench.records.build import RecordBlock
from pytest_mlebench.records.grade_report import GradeReport
from pytest_mlebench.records.run_record import Outcome
from pytest_mlebench.records.verdict import IntegrityReport


@dataclass(frozen=True)
class Judgement:
    """What a kind made of a finished sandbox phase: the outcome and the kind's own results.

    Attributes:
        outcome: ``passed`` or ``failed``.
        reason: Why, in the record's words (``None``: nothing to say).
        integrity: The integrity report of the run.
        grade: A competition's grade.
        result: An engineering task's result (the record's ``engineering`` block).
        anytime: A competition's curve from its graded submission copies (the record's
            ``anytime`` block).
    """

    outcome: Outcome
    reason: str | None
    integrity: IntegrityReport | None = None
    grade: GradeReport | None = None
    result: RecordBlock | None = None
    anytime: dict[str, Any] | None = None


def joined(notes: list[str | None]) -> str | None:
    """A record's reason: the notes that say something, in order."""
    return "; ".join(note for note in notes if note) or None
