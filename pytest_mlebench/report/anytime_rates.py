"""Medal rates at the marks of ``--mle-marks``, from each run's anytime curve (pure functions).

A run's ``anytime`` block says the best medal it held at each mark (:mod:`pytest_mlebench.anytime`);
the rate at a mark is the share of an agent's counted competition runs that held a medal by then,
over the same runs as the final medal rate, so the last quarter's rate is the final one where every
run kept its copies. A run without a curve (copies turned off, a record written before anytime
grading, an agent that never wrote a submission) holds no medal at any mark; ``with_curve`` says
how many runs had one. A medal that ``--mle-integrity strict`` withheld counts at no mark either.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pytest_mlebench.records.run_record import RunRecord


def mark_medals(record: RunRecord) -> list[tuple[str, str | None]]:
    """``(label, medal)`` of each mark of the run's curve, in order; none without a curve."""
    block = record.anytime or {}
    marks = []
    for entry in block.get("marks", []):
        if isinstance(entry, dict) and isinstance(entry.get("label"), str):
            medal = None if record.medal_withheld else entry.get("medal")
            marks.append((entry["label"], medal if isinstance(medal, str) else None))
    return marks


def rates_at_marks(records: Sequence[RunRecord]) -> dict[str, Any] | None:
    """The medal rate at each mark over ``records``' counted competition runs:
    ``{"runs", "with_curve", "marks": [{"label", "medals", "medal_rate"}]}``; ``None`` when no
    run has a curve."""
    counted = [r for r in records if r.kind == "competition" and r.ran and r.counted]
    curves = [mark_medals(r) for r in counted if r.anytime]
    if not curves:
        return None
    labels: list[str] = []
    for marks in curves:
        labels += [label for label, _ in marks if label not in labels]
    entries = []
    for label in labels:
        medals = sum(1 for marks in curves if dict(marks).get(label) is not None)
        entries.append(
            {"label": label, "medals": medals, "medal_rate": 100.0 * medals / len(counted)}
        )
    return {"runs": len(counted), "with_curve": len(curves), "marks": entries}


def rates_text(rates: dict[str, Any]) -> str:
    """One line: ``medal rate at marks: 25% 0.0 % · 50% 50.0 % (2 of 2 runs with a curve)``."""
    shown = " · ".join(f"{m['label']} {m['medal_rate']:.1f} %" for m in rates["marks"])
    counts = f"{rates['with_curve']} of {rates['runs']} runs with a curve"
    return f"medal rate at marks: {shown} ({counts})"


def run_curve_entry(record: RunRecord) -> dict[str, Any] | None:
    """A run's curve in ``summary.json``: copies, first valid and first medal (agent seconds),
    the best medal at each mark, and the points (``[seconds, score, medal]``, score ``None``
    where the copy was invalid); ``None`` without one."""
    block = record.anytime
    if not block:
        return None
    return {
        "copies": len(block.get("copies", [])),
        "first_valid": block.get("first_valid"),
        "first_medal": block.get("first_medal"),
        "marks": dict(mark_medals(record)),
        "points": [
            [point.get("time_used"), point.get("score"), point.get("medal")]
            for point in block.get("copies", [])
            if isinstance(point, dict)
        ],
    }
