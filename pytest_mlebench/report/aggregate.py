"""Pure aggregation of run records: rates per seed, mean ± SEM over seeds, 95 % CI, pass@k.

The leaderboard percentile, the medal's continuous companion, is averaged the same way
(:mod:`~pytest_mlebench.report.percentiles` says which runs count and with what value).

The protocol follows MLE-bench: for each seed, a rate is the percentage of the group's
competitions (that ran with that seed) where the run reached the goal; the headline number is the
mean of those per-seed rates with its standard error (``ddof=1``) and a 95 % interval of
``mean ± 1.96·SEM``. pass@k uses the unbiased estimator ``1 − C(n−c, k) / C(n, k)`` per
competition, averaged over the competitions that have at least ``k`` runs.

Skipped runs (data not prepared) are *not run*: they never count in a denominator. A run the
harness broke (failure class ``infra``, :mod:`pytest_mlebench.records.failure_class`) ran but is
left out of every rate and of pass@k: it says nothing about the agent; each group says how many
were left out and why (``excluded``). Every other failure (an agent's crash, timeout or OOM, an
invalid or missing submission) counts as a run that reached nothing. Nothing here does I/O.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.medals import MEDALS
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.percentiles import PercentileBasis, seed_percentiles
from pytest_mlebench.report.run_classes import class_counts, excluded_section

Z_95 = 1.96
# The yes/no metrics of a run, named as in summary.json (and as mle-bench names its keys).
METRICS = (
    "submission_exists",
    "valid_submission",
    "above_median",
    *(f"{medal}_medal" for medal in MEDALS),
    "any_medal",
    "any_medal_before_integrity",
)
OUTCOMES = ("passed", "failed", "error", "skipped")


@dataclass(frozen=True)
class Estimate:
    """A mean over seeds with its standard error and 95 % confidence interval.

    ``sem`` and ``ci95`` are ``None`` when fewer than two seeds ran (no spread to estimate).
    """

    mean: float | None
    sem: float | None
    ci95: tuple[float, float] | None
    n: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "mean": self.mean,
            "sem": self.sem,
            "ci95": list(self.ci95) if self.ci95 else None,
            "n": self.n,
        }


def mean_sem(values: Sequence[float]) -> Estimate:
    """Mean, standard error of the mean (``ddof=1``) and 95 % CI of ``values``.

    Args:
        values: One number per seed.

    Returns:
        The estimate; with no values everything is ``None``, with one value only the mean is set.
    """
    n = len(values)
    if n == 0:
        return Estimate(None, None, None, 0)
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, None, None, 1)
    variance = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    sem = math.sqrt(variance / n)
    return Estimate(mean, sem, (mean - Z_95 * sem, mean + Z_95 * sem), n)


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k: the chance that at least one of ``k`` of ``n`` runs succeeded.

    Args:
        n: Runs of the competition (``n ≥ k``).
        c: Successful runs among them.
        k: Attempts allowed.

    Raises:
        ValueError: When the counts are inconsistent (``k > n``, ``c > n``, negatives).
    """
    if not 0 <= c <= n or not 1 <= k <= n:
        raise ValueError(f"pass@k needs 0 <= c <= n and 1 <= k <= n, got n={n} c={c} k={k}")
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


def ran(record: RunRecord) -> bool:
    """Whether the run happened (skipped runs are *not run*)."""
    return record.ran


def flags(record: RunRecord) -> dict[str, bool]:
    """The yes/no metrics (:data:`METRICS`) of one run; a run without a grade reached none."""
    grade, medal = record.grade, record.medal
    return {
        "submission_exists": grade is not None and grade.submission_exists,
        "valid_submission": grade is not None and grade.valid_submission,
        "above_median": grade is not None and grade.award.above_median,
        **{f"{m}_medal": medal == m for m in MEDALS},
        "any_medal": medal is not None,
        "any_medal_before_integrity": grade is not None and grade.medal is not None,
    }


def seed_rates(records: Iterable[RunRecord], metric: str) -> dict[int, float]:
    """Per seed: the percentage of competitions whose run reached ``metric``, over the runs that
    count (:attr:`~pytest_mlebench.records.run_record.RunRecord.counted`: not skipped, not
    ``infra``)."""
    hits: dict[int, list[bool]] = defaultdict(list)
    for record in records:
        if record.counted:
            hits[record.seed].append(flags(record)[metric])
    return {seed: 100.0 * sum(values) / len(values) for seed, values in sorted(hits.items())}


def pass_at_k_table(records: Iterable[RunRecord], metric: str = "any_medal") -> dict[int, Any]:
    """pass@k (in %) for k = 1..max runs per competition, with how many competitions count.

    Each k averages the unbiased estimator over the competitions that ran at least k times
    (runs that count only: an ``infra`` run is not an attempt of the agent).
    """
    runs: dict[str, list[bool]] = defaultdict(list)
    for record in records:
        if record.counted:
            runs[record.competition_id].append(flags(record)[metric])
    if not runs:
        return {}
    table: dict[int, Any] = {}
    for k in range(1, max(len(v) for v in runs.values()) + 1):
        eligible = [v for v in runs.values() if len(v) >= k]
        values = [pass_at_k(len(v), sum(v), k) for v in eligible]
        table[k] = {"value": 100.0 * math.fsum(values) / len(values), "competitions": len(values)}
    return table


def percentile_stats(records: Sequence[RunRecord], basis: PercentileBasis) -> dict[str, Any]:
    """A group's ``percentile``: mean ± SEM over seeds, 95 % CI, ``per_seed`` and ``runs``.

    ``runs`` is how many runs count (those of competitions with a leaderboard); the estimate is
    empty (``mean`` ``None``, ``runs`` 0) when the records carry no percentiles.
    """
    per_seed = seed_percentiles(records, basis)
    stats = mean_sem(list(per_seed.values())).to_dict()
    stats["per_seed"] = {str(seed): value for seed, value in per_seed.items()}
    stats["runs"] = sum(1 for r in records if basis.counted(r) is not None)
    return stats


def group_stats(
    records: Sequence[RunRecord], basis: PercentileBasis | None = None
) -> dict[str, Any]:
    """Everything the summary reports for one group of runs (a split, or all of them).

    ``runs`` counts the runs that ran, ``counted_runs`` those the rates count (``runs`` less
    the ``excluded`` ones, whose classes and reasons it lists); ``failure_classes`` counts the
    runs that ran per class.

    Args:
        records: The group's runs.
        basis: What the agent's records say about percentiles (default: taken from ``records``).
    """
    done = [r for r in records if ran(r)]
    counted = [r for r in done if r.counted]
    metrics = {}
    for metric in METRICS:
        per_seed = seed_rates(counted, metric)
        estimate = mean_sem(list(per_seed.values())).to_dict()
        estimate["per_seed"] = {str(seed): rate for seed, rate in per_seed.items()}
        metrics[metric] = estimate
    outcomes: Counter[str] = Counter(r.outcome for r in records)
    return {
        "competitions": len({r.competition_id for r in done}),
        "runs": len(done),
        "counted_runs": len(counted),
        "excluded": excluded_section(done),
        "failure_classes": class_counts(done),
        "not_run": len(records) - len(done),
        "seeds": sorted({r.seed for r in done}),
        "outcomes": {outcome: outcomes[outcome] for outcome in OUTCOMES},
        "timed_out": sum(1 for r in done if r.timed_out),
        "metrics": metrics,
        "pass_at_k": {str(k): value for k, value in pass_at_k_table(counted).items()},
        "percentile": percentile_stats(records, basis or PercentileBasis.of(records)),
    }


def groups_by_split(records: Sequence[RunRecord]) -> dict[str, list[RunRecord]]:
    """Records per split (a run counts in every split its competition belongs to)."""
    groups: dict[str, list[RunRecord]] = defaultdict(list)
    for record in records:
        for split in record.splits:
            groups[split].append(record)
    return dict(sorted(groups.items()))


def groups_by_complexity(records: Sequence[RunRecord]) -> dict[str, list[RunRecord]]:
    """Records per complexity level (``low``/``medium``/``high``; unknown as ``unknown``)."""
    groups: dict[str, list[RunRecord]] = defaultdict(list)
    for record in records:
        groups[record.complexity or "unknown"].append(record)
    return dict(sorted(groups.items()))


def groups_by_modality(records: Sequence[RunRecord]) -> dict[str, list[RunRecord]]:
    """Records per modality (``tabular``, ``image``, ``text``, …; unknown as ``unknown``)."""
    groups: dict[str, list[RunRecord]] = defaultdict(list)
    for record in records:
        groups[record.modality or "unknown"].append(record)
    return dict(sorted(groups.items()))
