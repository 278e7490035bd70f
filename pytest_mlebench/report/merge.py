"""Merge run records from one or more results files by their recorded ids, never by file order.

A run is identified by ``(competition_id, seed, agent)``. The same record found twice (same
``run_id``, e.g. a shard copied into two places) is one record. Different records of the same run
are *duplicates*: a rerun appends a new record, and the newest ``finished_at`` wins — except that
a skipped record never replaces one that ran. Every duplicate is reported with the run ids it
superseded. Seeds are never padded: a competition that lacks some of the expected seeds is
reported under ``missing_seeds`` and its rates use only the seeds that exist.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pytest_mlebench.records.run_record import RunRecord, read_records

RunKey = tuple[str, int, str]
EARLIEST = datetime.min.replace(tzinfo=timezone.utc)


@dataclass(frozen=True)
class Duplicate:
    """Several records of one run: which one was kept and which were superseded."""

    competition_id: str
    seed: int
    agent: str
    kept: str
    superseded: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "competition_id": self.competition_id,
            "seed": self.seed,
            "agent": self.agent,
            "kept_run_id": self.kept,
            "superseded_run_ids": list(self.superseded),
        }


@dataclass(frozen=True)
class MissingSeeds:
    """A competition that ran with fewer seeds than expected."""

    competition_id: str
    agent: str
    missing: tuple[int, ...]
    expected: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "competition_id": self.competition_id,
            "agent": self.agent,
            "missing_seeds": list(self.missing),
            "expected_seeds": self.expected,
        }


@dataclass(frozen=True)
class Merged:
    """The outcome of a merge: one record per run, plus what the merge found."""

    records: tuple[RunRecord, ...]
    read: int = 0
    copies: int = 0
    duplicates: tuple[Duplicate, ...] = ()
    missing: tuple[MissingSeeds, ...] = ()
    sources: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, Any]:
        return {
            "sources": list(self.sources),
            "records_read": self.read,
            "identical_copies": self.copies,
            "records_used": len(self.records),
            "duplicates": [d.to_dict() for d in self.duplicates],
            "missing_seeds": [m.to_dict() for m in self.missing],
        }

    def findings(self) -> list[str]:
        """One line per duplicate and per competition with missing seeds."""
        lines = [
            f"duplicate {d.competition_id} seed {d.seed} ({d.agent}): kept {d.kept}, "
            f"superseded {', '.join(d.superseded)}"
            for d in self.duplicates
        ]
        lines += [
            f"missing seeds {', '.join(map(str, m.missing))} of {m.expected} for "
            f"{m.competition_id} ({m.agent})"
            for m in self.missing
        ]
        return lines


def run_key(record: RunRecord) -> RunKey:
    return (record.competition_id, record.seed, record.agent)


def _finished(record: RunRecord) -> datetime:
    """``finished_at`` as an aware time (naive stamps are UTC; unreadable ones sort first)."""
    try:
        stamp = datetime.fromisoformat(record.finished_at)
    except (TypeError, ValueError):
        return EARLIEST
    return stamp if stamp.tzinfo else stamp.replace(tzinfo=timezone.utc)


def _preference(record: RunRecord) -> tuple[bool, datetime, str]:
    """Sort key: a run that happened beats a skip, then the newest, then the run id (stable)."""
    return (record.outcome != "skipped", _finished(record), record.run_id)


def merge_records(records: Iterable[RunRecord], expected_seeds: int | None = None) -> Merged:
    """Merge records into one per ``(competition, seed, agent)``.

    Args:
        records: Records in any order, from any number of files.
        expected_seeds: Seeds each competition should have (``0..N-1``). Defaults to one more
            than the highest seed any competition of the same agent reached.

    Returns:
        The kept records (sorted by agent, competition, seed) and the merge's findings.
    """
    by_id: dict[tuple[str, RunKey], RunRecord] = {}
    read = 0
    for record in records:
        read += 1
        by_id.setdefault((record.run_id, run_key(record)), record)
    groups: dict[RunKey, list[RunRecord]] = defaultdict(list)
    for record in by_id.values():
        groups[run_key(record)].append(record)
    kept: list[RunRecord] = []
    duplicates: list[Duplicate] = []
    for key in sorted(groups):
        ordered = sorted(groups[key], key=_preference, reverse=True)
        kept.append(ordered[0])
        if len(ordered) > 1:
            superseded = tuple(r.run_id for r in ordered[1:])
            duplicates.append(Duplicate(*key, kept=ordered[0].run_id, superseded=superseded))
    kept.sort(key=lambda r: (r.agent, r.competition_id, r.seed))
    return Merged(
        records=tuple(kept),
        read=read,
        copies=read - len(by_id),
        duplicates=tuple(duplicates),
        missing=tuple(find_missing_seeds(kept, expected_seeds)),
    )


def find_missing_seeds(
    records: Sequence[RunRecord], expected_seeds: int | None = None
) -> list[MissingSeeds]:
    """Competitions (per agent) that lack some of the seeds ``0..expected-1``."""
    seeds: dict[tuple[str, str], set[int]] = defaultdict(set)
    for record in records:
        seeds[(record.agent, record.competition_id)].add(record.seed)
    highest: dict[str, int] = defaultdict(lambda: -1)
    for (agent, _), present in seeds.items():
        highest[agent] = max(highest[agent], *present)
    missing = []
    for (agent, competition_id), present in sorted(seeds.items()):
        expected = max(expected_seeds or 0, highest[agent] + 1)
        absent = tuple(sorted(set(range(expected)) - present))
        if absent:
            missing.append(MissingSeeds(competition_id, agent, absent, expected))
    return missing


def merge_files(paths: Sequence[Path], expected_seeds: int | None = None) -> Merged:
    """Read every results file in ``paths`` and merge their records."""
    merged = merge_records(read_records(paths), expected_seeds)
    return Merged(
        records=merged.records,
        read=merged.read,
        copies=merged.copies,
        duplicates=merged.duplicates,
        missing=merged.missing,
        sources=tuple(str(p) for p in paths),
    )
