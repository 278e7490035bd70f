"""The marks of ``--mle-marks``: the agent times at which the best medal so far is read.

``1h,6h,12h`` (durations as ``--mle-checkpoint-every`` spells them: ``s``, ``m``, ``h``, bare
digits are seconds) or ``auto``: the quarters of the run's time limit (6 h, 12 h, 18 h and 24 h
for a 24-hour limit), so a session answers "what at half the time" without being told.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_mlebench.values.checkpoint_every import parse_every

AUTO = "auto"
QUARTERS = (0.25, 0.5, 0.75, 1.0)


def parse_marks(value: object) -> tuple[float, ...] | None:
    """``--mle-marks``'s value: the marks in seconds, ascending; ``None`` for ``auto``.

    Raises:
        ValueError: A part that is not a positive duration (the message names it).
    """
    spelled = str(value).strip().lower()
    if spelled in ("", AUTO):
        return None
    marks = set()
    for part in spelled.split(","):
        part = part.strip()
        try:
            seconds = parse_every(part) if part else None
        except ValueError:
            seconds = None
        if seconds is None:
            raise ValueError(f"{part!r} is not a duration: give marks like 1h,6h,12h, or auto")
        marks.add(seconds)
    return tuple(sorted(marks))


def marks_for(marks: Sequence[float] | None, time_limit: float) -> tuple[tuple[float, str], ...]:
    """The marks a run of ``time_limit`` seconds is read at, with their labels: the given ones
    (``6h``), or its quarters (``25%`` … ``100%``: runs of different time limits share them)."""
    if marks is not None:
        return tuple((mark, mark_label(mark)) for mark in marks)
    return tuple((round(time_limit * share, 3), f"{share:.0%}") for share in QUARTERS)


def mark_label(seconds: float) -> str:
    """A mark as people write it: ``12h``, ``90m``, ``45s``."""
    for unit, size in (("h", 3600), ("m", 60)):
        if seconds >= size and seconds % size == 0:
            return f"{int(seconds // size)}{unit}"
    return f"{seconds:g}s"
