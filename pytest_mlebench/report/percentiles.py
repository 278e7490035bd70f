"""Leaderboard percentiles in the reports: what each run counts with, and group means. Pure.

A graded run carries the share of the leaderboard its score beats
(:mod:`pytest_mlebench.percentile`). For averages, a run that happened without a valid submission
(invalid, missing, the agent crashed or ran out of time) counts as **0**: it beats no entry; a run
the harness broke (class ``infra``) does not count at all, as in the rates. Competitions
without a leaderboard have no percentile and are left out. A set of records that carries no
percentile at all for its valid, leaderboard-graded runs (written before percentiles existed:
results files of record version 1) has no percentile statistics: ``None``, never a false 0.

Like the rates, a group's number is per seed the mean over the group's competitions, then the mean
± SEM of those per-seed means (:func:`~pytest_mlebench.report.aggregate.percentile_stats`). The
basis is taken from all of an agent's records, so a competition whose every run failed still
counts as 0 when the others show that percentiles were recorded.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from pytest_mlebench.records.run_record import RunRecord


@dataclass(frozen=True)
class PercentileBasis:
    """What a set of records says about percentiles: whether it has them, and which boards.

    Attributes:
        known: Whether a valid, leaderboard-graded run carries a percentile (records of version 1
            never do).
        boards: Competitions graded against a leaderboard (they have percentiles).
    """

    known: bool
    boards: frozenset[str]

    @classmethod
    def of(cls, records: Iterable[RunRecord]) -> PercentileBasis:
        runs = list(records)
        boards = frozenset(
            r.competition_id for r in runs if r.grade is not None and r.grade.has_leaderboard
        )
        known = any(
            r.grade is not None and r.grade.valid_submission and r.grade.percentile is not None
            for r in runs
        )
        return cls(known, boards)

    def counted(self, record: RunRecord) -> float | None:
        """The percentile ``record`` counts with in averages; ``None`` when it does not count."""
        if not record.counted or not self.known:  # skipped, or broken by the harness
            return None
        if record.competition_id not in self.boards:
            return None
        grade = record.grade
        if grade is None or not grade.valid_submission:
            return 0.0
        return grade.percentile


def seed_percentiles(records: Sequence[RunRecord], basis: PercentileBasis) -> dict[int, float]:
    """Per seed: the mean percentile over the competitions that ran with it (and count)."""
    values: dict[int, list[float]] = defaultdict(list)
    for record in records:
        counted = basis.counted(record)
        if counted is not None:
            values[record.seed].append(counted)
    return {seed: math.fsum(v) / len(v) for seed, v in sorted(values.items())}


def mean_percentile(records: Sequence[RunRecord], basis: PercentileBasis) -> float | None:
    """The mean counted percentile of one competition's runs (``None`` when none counts)."""
    values = [v for v in (basis.counted(r) for r in records) if v is not None]
    return math.fsum(values) / len(values) if values else None
