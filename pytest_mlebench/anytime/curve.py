"""A run's curve from its graded submission copies: pure functions over plain values.

A point is one copy: the agent's seconds when it was seen, its score (``None``: invalid), its
medal. The curve says when the first valid submission came, when the first medal came, and the
best medal held at each mark (the best of the copies seen by then: a submission the agent later
overwrote still counts at the mark it was there, as a snapshot of the run at that time would).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from pytest_mlebench.medals import MEDALS, Medal


@dataclass(frozen=True)
class CurvePoint:
    """One graded copy: agent seconds, score, validity, medal and its file in the run folder."""

    time_used: float
    score: float | None
    valid: bool
    medal: Medal | None
    file: str


def best_medal(medals: Sequence[Medal | None]) -> Medal | None:
    """The best of ``medals`` (gold > silver > bronze); ``None`` when there is none."""
    ranked = [MEDALS.index(medal) for medal in medals if medal is not None]
    return MEDALS[min(ranked)] if ranked else None


def medal_at(points: Sequence[CurvePoint], mark: float) -> Medal | None:
    """The best medal among the copies seen by ``mark`` seconds."""
    return best_medal([point.medal for point in points if point.time_used <= mark])


def first_time(points: Sequence[CurvePoint], *, medal: bool) -> float | None:
    """The agent seconds of the first valid copy (``medal``: the first with a medal)."""
    for point in points:
        if (point.medal is not None) if medal else point.valid:
            return point.time_used
    return None


def curve_block(points: Sequence[CurvePoint], marks: Sequence[tuple[float, str]]) -> dict[str, Any]:
    """The record's ``anytime`` block: the points, the first valid and first medal times, and
    the best medal at each mark (seconds and label: ``6h``, or ``50%`` of the time limit)."""
    return {
        "copies": [asdict(point) for point in points],
        "first_valid": first_time(points, medal=False),
        "first_medal": first_time(points, medal=True),
        "marks": [
            {"mark": mark, "label": label, "medal": medal_at(points, mark)} for mark, label in marks
        ],
    }


def points_of(block: dict[str, Any] | None) -> list[CurvePoint]:
    """The points of a record's ``anytime`` block (none when it has none or is malformed)."""
    points = []
    for entry in (block or {}).get("copies", []):
        try:
            points.append(CurvePoint(**entry))
        except TypeError:
            continue
    return points
