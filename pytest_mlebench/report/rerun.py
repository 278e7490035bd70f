"""Selective reruns: pick (competition, seed) pairs from a saved summary or results file.

``--mle-rerun failed,timeout --mle-from reports/summary.json`` keeps exactly the benchmark runs
(competitions and engineering tasks) whose run of the *current agent* in that file was of one of
those kinds, and deselects the other benchmark runs (other tests are left alone). Matching is by
competition or task id and seed, from the ticket in each item's stash
(:mod:`pytest_mlebench.handover`), never by node id, so a file from another machine or checkout
works. Kinds:

* ``failed`` — outcome failed (below the gate); ``error`` — outcome error (infrastructure);
* ``invalid`` — graded, but the submission was missing or invalid;
* ``no-medal`` — ran and earned no medal (invalid and error runs included);
* ``timeout`` — the agent hit the time limit (also a run that left a valid submission, whose
  class is its result); ``skipped`` — not run (data not prepared);
* a failure class (:mod:`pytest_mlebench.records.failure_class`): ``medal``,
  ``valid_no_medal``, ``invalid_submission``, ``no_submission``, ``oom``, ``agent_crash``,
  ``infra`` — the run ended in that class (``--mle-rerun infra`` repeats what the harness broke).

A summary written before failure classes existed has none: a class then selects nothing, and the
plan says so; its results file, summarised anew, has them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.handover import case_of
from pytest_mlebench.records.failure_class import FAILURE_CLASSES

Pair = tuple[str, int]


def run_is(run: dict[str, Any], kind: str) -> bool:
    """Whether one summary run entry is of ``kind``."""
    outcome = run.get("outcome")
    if kind in ("failed", "error", "skipped"):
        return outcome == kind
    if kind == "invalid":
        return bool(run.get("graded")) and not run.get("valid_submission")
    if kind == "no-medal":
        return outcome != "skipped" and run.get("medal") is None
    if kind == "timeout":
        return bool(run.get("timed_out")) or run.get("failure_class") == "timeout"
    if kind in FAILURE_CLASSES:
        return run.get("failure_class") == kind
    raise ValueError(f"unknown rerun kind {kind!r}")


def agents_in(summary: dict[str, Any]) -> list[str]:
    return sorted({entry["agent"] for entry in summary.get("competitions", [])})


def select_pairs(summary: dict[str, Any], kinds: Iterable[str], agent: str) -> set[Pair]:
    """The (competition, seed) pairs of ``agent`` whose run matches any of ``kinds``."""
    chosen = set(kinds)
    return {
        (entry["competition_id"], int(run["seed"]))
        for entry in summary.get("competitions", [])
        if entry.get("agent") == agent
        for run in entry.get("runs", [])
        if any(run_is(run, kind) for kind in chosen)
    }


@dataclass(frozen=True)
class RerunPlan:
    """The pairs to rerun, and the lines that explain the selection."""

    source: Path
    kinds: frozenset[str]
    pairs: frozenset[Pair]
    notes: tuple[str, ...] = ()

    def header(self) -> str:
        kinds = ",".join(sorted(self.kinds))
        return f"rerun {kinds} from {self.source}: {len(self.pairs)} run(s) selected"


def plan_rerun(
    summary: dict[str, Any],
    source: Path,
    kinds: frozenset[str],
    agent: str,
    known: Iterable[str],
    seeds: int,
) -> RerunPlan:
    """Select pairs and note those this session cannot collect.

    Args:
        summary: The summary of ``source``.
        source: Where the summary came from (for messages).
        kinds: Which runs to rerun.
        agent: The current agent; only its runs are selected.
        known: Competition and task ids of this session's registries.
        seeds: ``--mle-seeds`` of this session.

    Raises:
        ValueError: When the file has no run of ``agent`` (message names the agents it has).
    """
    present = agents_in(summary)
    if agent not in present:
        raise ValueError(
            f"{source} has no runs of agent {agent!r} (it has: {', '.join(present) or 'none'}); "
            "pass the same --mle-agent as the run you are repeating"
        )
    pairs = select_pairs(summary, kinds, agent)
    known_ids = set(known)
    notes = [
        f"{cid} seed {seed}: not in this registry, cannot rerun"
        for cid, seed in sorted(pairs)
        if cid not in known_ids
    ]
    high = [seed for cid, seed in pairs if cid in known_ids and seed >= seeds]
    if set(kinds) & set(FAILURE_CLASSES) - {"timeout"} and not _has_classes(summary):
        notes.append(
            f"{source} was written before failure classes existed: rerun by class from its "
            "results file (results.jsonl) instead"
        )
    if high:
        notes.append(
            f"{len(high)} run(s) need seeds up to {max(high)}: add --mle-seeds {max(high) + 1}"
        )
    return RerunPlan(source, kinds, frozenset(pairs), tuple(notes))


def _has_classes(summary: dict[str, Any]) -> bool:
    return any(
        "failure_class" in run
        for entry in summary.get("competitions", [])
        for run in entry.get("runs", [])
    )


def item_pair(item: Any) -> Pair | None:
    """The (competition or task, seed) of a benchmark run's item, from the ticket in its stash;
    ``None`` for any other test."""
    ticket = case_of(item)
    return ticket.pair if ticket is not None else None


def split_items(items: Sequence[Any], pairs: frozenset[Pair]) -> tuple[list[Any], list[Any]]:
    """(kept, deselected): benchmark tests outside ``pairs`` are deselected, others kept."""
    kept: list[Any] = []
    deselected: list[Any] = []
    for item in items:
        pair = item_pair(item)
        (deselected if pair is not None and pair not in pairs else kept).append(item)
    return kept, deselected
