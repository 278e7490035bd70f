"""Match the runs of two summaries by (agent, competition, seed) for the paired gate. Pure.

Agents are paired as the rate-drop gate pairs them (:func:`~pytest_mlebench.report.compare.
pair_agents`: same names, or the single agent of each side). Within a pair of agents a run of the
baseline and a run of the new summary match when they have the same competition and seed and both
count: a skipped run is not run, and a run the harness broke (failure class ``infra``, a run
entry's ``counted`` false) says nothing about the agent, as in the rates. Every other run is
*unmatched* and reported separately.

What a run counts with follows :mod:`pytest_mlebench.report.percentiles`, read back from the
summary: a valid run its percentile, a run without a valid submission 0, on a competition with a
leaderboard; nothing when the summary carries no percentiles at all (older versions). An
engineering task's run counts with 100 × its task score (0-100 like a percentile) and, where a
competition's run counts a medal, with whether it passed (``docs/engineering.md``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.report.paired_comparison import RunPair

RunKey = tuple[str, int]  # (competition id, seed)


@dataclass(frozen=True)
class Matching:
    """The matched and unmatched runs of one pair of agents."""

    base_agent: str
    new_agent: str
    pairs: tuple[RunPair, ...]
    only_base: tuple[RunKey, ...]
    only_new: tuple[RunKey, ...]

    @property
    def with_percentiles(self) -> int:
        """Matched pairs with a percentile on both sides."""
        return sum(1 for pair in self.pairs if pair.percentile_change is not None)


def carries_percentiles(summary: dict[str, Any]) -> bool:
    """Whether any valid run of ``summary`` has a leaderboard percentile, or any engineering
    task's run a task score (the paired gate's continuous value).

    ``summary.json`` files written before percentiles existed have no ``percentile`` key, and
    results files of record version 1 give ``None`` for every run.
    """
    return any(
        (run.get("percentile") is not None and run.get("valid_submission"))
        or run.get("task_score") is not None
        for entry in summary.get("competitions", [])
        for run in entry.get("runs", [])
    )


def _runs(summary: dict[str, Any], agent: str) -> Iterator[tuple[dict[str, Any], dict[str, Any]]]:
    for entry in summary.get("competitions", []):
        if entry.get("agent") == agent:
            for run in entry.get("runs", []):
                # summaries written before failure classes have no "counted": every run counts
                if run.get("outcome") != "skipped" and run.get("counted", True):
                    yield entry, run


def counted_percentile(entry: dict[str, Any], run: dict[str, Any], known: bool) -> float | None:
    """The percentile a summary's run counts with (see the module docstring)."""
    if not known or entry.get("thresholds") is None:
        return None
    if not run.get("valid_submission"):
        return 0.0
    value = run.get("percentile")
    return None if value is None else float(value)


def counted_value(entry: dict[str, Any], run: dict[str, Any], known: bool) -> float | None:
    """A run's continuous value in the gate: the percentile, or a task's 100 × score."""
    if entry.get("kind") == "engineering":
        score = run.get("task_score")
        return None if score is None else float(score)
    return counted_percentile(entry, run, known)


def succeeded(entry: dict[str, Any], run: dict[str, Any]) -> bool:
    """A run's success in the gate's flip test: a medal, or a task's ``passed``."""
    if entry.get("kind") == "engineering":
        return run.get("outcome") == "passed"
    return bool(run.get("any_medal", run.get("medal") is not None))


def run_table(summary: dict[str, Any], agent: str) -> dict[RunKey, tuple[float | None, bool]]:
    """Per (competition or task, seed) that ran: the counted value and whether it succeeded."""
    known = carries_percentiles(summary)
    return {
        (entry["competition_id"], int(run["seed"])): (
            counted_value(entry, run, known),
            succeeded(entry, run),
        )
        for entry, run in _runs(summary, agent)
    }


def match_runs(
    base: dict[str, Any], new: dict[str, Any], base_agent: str, new_agent: str
) -> Matching:
    """Pair the runs of ``base_agent`` in ``base`` with those of ``new_agent`` in ``new``."""
    before, after = run_table(base, base_agent), run_table(new, new_agent)
    pairs = tuple(
        RunPair(cid, seed, before[(cid, seed)][0], after[(cid, seed)][0],
                before[(cid, seed)][1], after[(cid, seed)][1])
        for cid, seed in sorted(before.keys() & after.keys())
    )  # fmt: skip
    return Matching(
        base_agent,
        new_agent,
        pairs,
        tuple(sorted(before.keys() - after.keys())),
        tuple(sorted(after.keys() - before.keys())),
    )


def unmatched_lines(matching: Matching, limit: int = 8) -> list[str]:
    """``2 run(s) only in the baseline: toy-b s0, toy-b s1`` (and the other side)."""
    lines = []
    for keys, where in (
        (matching.only_base, "only in the baseline"),
        (matching.only_new, "only in this session"),
    ):
        if keys:
            shown = ", ".join(f"{cid} s{seed}" for cid, seed in keys[:limit])
            more = f" and {len(keys) - limit} more" if len(keys) > limit else ""
            lines.append(f"{len(keys)} run(s) {where} (not compared): {shown}{more}")
    return lines
