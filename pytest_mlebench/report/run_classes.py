"""The failure classes in the reports: how many runs ended in each, and which runs the rates left
out and why. Pure.

Every report shows the same two things from here: the count per class
(:func:`class_counts`, every class named, zeros included, so a reader and a gate see the same
keys each time), and the runs the medal, valid and percentile rates exclude — those the harness
broke (class ``infra``, :mod:`pytest_mlebench.records.failure_class`) — with their reasons
(:func:`excluded_section`). A skipped run has no class and is counted as ``not_run`` elsewhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from pytest_mlebench.records.failure_class import EXCLUDED_FROM_RATES, FAILURE_CLASSES
from pytest_mlebench.records.run_record import RunRecord

# How many reasons the text reports quote (the JSON keeps every one).
QUOTED_REASONS = 3


def class_counts(records: Sequence[RunRecord]) -> dict[str, int]:
    """Runs per failure class, every class named in its order (skipped runs have none)."""
    counts = Counter(r.failure_class for r in records if r.failure_class is not None)
    return {name: counts[name] for name in FAILURE_CLASSES}


def excluded_section(records: Sequence[RunRecord]) -> dict[str, Any]:
    """The runs the rates leave out: ``runs`` (how many), ``classes`` (how many of each excluded
    class) and ``reasons`` (one entry per run: competition or task, seed, class, reason, and how
    many attempts ``--mle-retries`` gave it)."""
    left_out = [r for r in records if r.ran and not r.counted]
    classes = Counter(str(r.failure_class) for r in left_out)
    return {
        "runs": len(left_out),
        "classes": {name: classes[name] for name in sorted(EXCLUDED_FROM_RATES)},
        "reasons": [
            {
                "competition_id": r.competition_id,
                "seed": r.seed,
                "failure_class": r.failure_class,
                "reason": r.reason,
                "attempts": len(r.attempts) + 1,
            }
            for r in sorted(left_out, key=lambda r: (r.competition_id, r.seed))
        ],
    }


def classes_text(counts: dict[str, int]) -> str:
    """``medal 1, valid_no_medal 2, infra 1`` (classes with no run left out); ``none``."""
    return ", ".join(f"{name} {count}" for name, count in counts.items() if count) or "none"


def excluded_text(section: dict[str, Any]) -> str | None:
    """``1 run excluded from the rates (infra 1: toy-a s0 SandboxError: …)``; ``None`` when the
    rates left nothing out."""
    runs = int(section.get("runs") or 0)
    if not runs:
        return None
    classes = ", ".join(f"{name} {n}" for name, n in section["classes"].items() if n)
    quoted = [
        f"{entry['competition_id']} s{entry['seed']} {entry['reason'] or 'no reason recorded'}"
        for entry in section["reasons"][:QUOTED_REASONS]
    ]
    more = runs - len(quoted)
    if more > 0:
        quoted.append(f"{more} more in summary.json")
    plural = "run" if runs == 1 else "runs"
    return f"{runs} {plural} excluded from the rates ({classes}: {'; '.join(quoted)})"


def class_cell(record: RunRecord) -> str:
    """A run's cell in the medal tables (:func:`cell_text`)."""
    return cell_text(record.ran, record.medal, record.failure_class)


def run_cell(run: Mapping[str, Any]) -> str:
    """:func:`cell_text` of one run entry of ``summary.json`` (one written before classes
    existed shows its medal or ``-``)."""
    ran = run.get("outcome") != "skipped"
    return cell_text(ran, run.get("medal"), run.get("failure_class") or "valid_no_medal")


def cell_text(ran: bool, medal: str | None, failure_class: str | None) -> str:
    """A run's cell in the medal tables: its medal, ``-`` for a valid result without one, else
    its class (``infra``, ``timeout``, ``no_submission``, …); ``not run`` when skipped."""
    if not ran:
        return "not run"
    if medal:
        return medal
    return "-" if failure_class in (None, "valid_no_medal", "medal") else failure_class


def group_classes_text(stats: Mapping[str, Any]) -> str | None:
    """A group's (``summary.json``'s ``overall``, a split) classes and what the rates left out:
    ``failure classes: medal 1, agent_crash 1, infra 1; 1 run excluded from the rates (…)``;
    ``None`` for a summary written before classes existed."""
    counts = stats.get("failure_classes")
    if counts is None:
        return None
    text = f"failure classes: {classes_text(counts)}"
    excluded = excluded_text(stats.get("excluded") or {})
    return text if excluded is None else f"{text}; {excluded}"
