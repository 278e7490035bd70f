"""Paired comparison of two sessions: the same (competition, seed) runs, before and after.

Two numbers per matched pair move: the run's leaderboard percentile (continuous, 0-100) and
whether it earned a medal (binary). A session-level verdict needs both a size and a sense of noise:

* **Percentile**: the mean of the paired differences (new − baseline, in percentile points) with a
  bootstrap confidence interval. Runs of one competition share its difficulty and its leaderboard,
  so seeds of a competition are not independent draws: the bootstrap resamples *competitions*
  (each with all of its matched seeds), which keeps the interval honest when seeds are few and
  correlated.
* **Medals**: the discordant pairs (a medal gained, a medal lost) in an exact two-sided McNemar
  test, a binomial test of the gains among the changes against one half.
* **Per competition**: a strong change confined to one competition barely moves the session mean,
  yet a CI gate must see it. Each competition's mean change is tested against the seed noise
  *pooled* over all competitions (the spread of each competition's changes around its own mean;
  Student's t with the pooled degrees of freedom), Bonferroni-corrected for the number of
  competitions tested. These tests spend half of ``alpha`` (:data:`COMPETITION_SHARE`), which
  keeps the gate's false alarms near ``alpha`` overall (``tests/report/gate_simulation.py``). They
  need at least two seeds somewhere (no noise estimate otherwise).

:func:`paired_verdict` calls a change a ``regression`` when either test says the new session is
worse at level ``alpha`` (the percentile interval lies below zero, or medals were lost
significantly more often than gained, or one competition dropped significantly), or when the
mean percentile drop is beyond the allowed margin; an ``improvement`` when a test says it is
better and neither says worse; else
``no significant change``. Pure: numbers in, values out; the seed makes every interval
reproducible.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

Verdict = Literal["regression", "no significant change", "improvement"]
DEFAULT_RESAMPLES = 2000
DEFAULT_SEED = 20261130
# Share of alpha the per-competition tests spend (Bonferroni over the competitions within it).
COMPETITION_SHARE = 0.5


@dataclass(frozen=True)
class RunPair:
    """One (competition, seed) that ran in both sessions."""

    competition_id: str
    seed: int
    base_percentile: float | None
    new_percentile: float | None
    base_medal: bool
    new_medal: bool

    @property
    def percentile_change(self) -> float | None:
        """New minus baseline percentile, or ``None`` when either run has no percentile."""
        if self.base_percentile is None or self.new_percentile is None:
            return None
        return self.new_percentile - self.base_percentile


@dataclass(frozen=True)
class Interval:
    """A point estimate with a two-sided confidence interval at ``level``."""

    estimate: float
    low: float
    high: float
    level: float


@dataclass(frozen=True)
class McNemar:
    """Medal flips of the matched pairs and the exact two-sided p-value."""

    gained: int
    lost: int
    p_value: float


@dataclass(frozen=True)
class CompetitionShift:
    """One competition's mean percentile change and its p-value against the pooled seed noise."""

    competition_id: str
    runs: int
    change: float
    p_value: float

    def describe(self) -> str:
        """``toy-a -85.0 points over 3 seed(s) (p=1e-06)``."""
        return (
            f"{self.competition_id} {self.change:+.1f} points over {self.runs} seed(s) "
            f"({p_text(self.p_value)})"
        )


@dataclass(frozen=True)
class PairedResult:
    """The paired comparison of one agent's runs, with its verdict and the reason for it."""

    pairs: int
    competitions: int
    percentile: Interval | None
    medals: McNemar
    verdict: Verdict
    reason: str
    alpha: float
    margin: float | None
    shifts: tuple[CompetitionShift, ...] = ()

    def significant_shifts(self) -> list[CompetitionShift]:
        """The competitions that moved beyond the seed noise (see :func:`significant`)."""
        return significant(self.shifts, self.alpha)


def exact_mcnemar(gained: int, lost: int) -> McNemar:
    """Exact two-sided McNemar test of ``gained`` against ``lost`` discordant pairs.

    Under no change each discordant pair is a gain or a loss with probability one half, so the
    p-value is twice the smaller binomial tail, capped at 1 (1 when there are no flips).
    """
    if gained < 0 or lost < 0:
        raise ValueError("flip counts cannot be negative")
    flips = gained + lost
    if flips == 0:
        return McNemar(gained, lost, 1.0)
    tail = sum(math.comb(flips, k) for k in range(min(gained, lost) + 1)) / 2**flips
    return McNemar(gained, lost, min(1.0, 2 * tail))


def cluster_bootstrap(
    changes: Mapping[str, Sequence[float]],
    level: float,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> Interval:
    """Mean change with a percentile-bootstrap interval that resamples whole clusters.

    Args:
        changes: Per cluster (competition), the paired changes of its runs (one per seed).
        level: Confidence level of the two-sided interval, e.g. 0.95.
        resamples: Bootstrap resamples.
        seed: Seed of the resampling, so the same input gives the same interval.

    Returns:
        The mean over all changes and its interval; with one cluster the interval is the point.
    """
    clusters = [list(values) for _, values in sorted(changes.items()) if values]
    if not clusters:
        raise ValueError("no paired changes to bootstrap")
    if not 0 < level < 1:
        raise ValueError("the confidence level lies strictly between 0 and 1")
    sums = [math.fsum(values) for values in clusters]
    counts = [len(values) for values in clusters]
    estimate = math.fsum(sums) / sum(counts)
    if len(clusters) == 1:
        return Interval(estimate, estimate, estimate, level)
    rng = random.Random(seed)
    indices = range(len(clusters))
    means = sorted(
        _resampled_mean(rng.choices(indices, k=len(clusters)), sums, counts)
        for _ in range(resamples)
    )
    tail = (1 - level) / 2
    return Interval(estimate, _quantile(means, tail), _quantile(means, 1 - tail), level)


def _resampled_mean(chosen: Sequence[int], sums: Sequence[float], counts: Sequence[int]) -> float:
    return math.fsum(sums[i] for i in chosen) / sum(counts[i] for i in chosen)


def _quantile(ordered: Sequence[float], q: float) -> float:
    """Linear-interpolation quantile of an ascending sequence."""
    position = q * (len(ordered) - 1)
    below = math.floor(position)
    above = min(below + 1, len(ordered) - 1)
    return ordered[below] + (ordered[above] - ordered[below]) * (position - below)


def student_t_two_sided(t: float, df: int) -> float:
    """Two-sided p-value ``P(|T| >= |t|)`` of Student's t with ``df`` (whole) degrees of freedom.

    The closed forms for whole degrees of freedom (Abramowitz and Stegun 26.7.3 and 26.7.4), so no
    special-function library is needed.
    """
    if df < 1:
        raise ValueError("Student's t needs at least one degree of freedom")
    if math.isinf(t):
        return 0.0
    theta = math.atan(abs(t) / math.sqrt(df))
    cos2 = math.cos(theta) ** 2
    if df % 2:
        series, term = 0.0, 1.0
        for k in range(1, (df - 1) // 2 + 1):
            series += term
            term *= cos2 * (2 * k) / (2 * k + 1)
        inside = (2 / math.pi) * (theta + math.sin(theta) * math.cos(theta) * series)
    else:
        series, term = 0.0, 1.0
        for k in range(1, df // 2 + 1):
            series += term
            term *= cos2 * (2 * k - 1) / (2 * k)
        inside = math.sin(theta) * series
    return min(1.0, max(0.0, 1.0 - inside))


def competition_shifts(changes: Mapping[str, Sequence[float]]) -> tuple[CompetitionShift, ...]:
    """Each competition's mean change, tested against the seed noise pooled over competitions.

    Returns nothing when no competition has two or more changes (no noise to compare with).
    With no noise at all (every seed of every competition moved alike), a competition that moved
    has p-value 0 and one that did not has 1.
    """
    groups = {cid: list(values) for cid, values in sorted(changes.items()) if values}
    df = sum(len(values) - 1 for values in groups.values())
    if df < 1:
        return ()
    means = {cid: math.fsum(values) / len(values) for cid, values in groups.items()}
    squares = math.fsum((v - means[cid]) ** 2 for cid, values in groups.items() for v in values)
    variance = squares / df
    shifts = []
    for cid, values in groups.items():
        mean, runs = means[cid], len(values)
        if variance <= 1e-12:
            p_value = 1.0 if abs(mean) <= 1e-9 else 0.0
        else:
            p_value = student_t_two_sided(mean / math.sqrt(variance / runs), df)
        shifts.append(CompetitionShift(cid, runs, mean, p_value))
    return tuple(shifts)


def significant(shifts: Sequence[CompetitionShift], alpha: float) -> list[CompetitionShift]:
    """The shifts whose p-value is below the per-competition share of ``alpha`` divided by the
    number of competitions tested (Bonferroni)."""
    level = alpha * COMPETITION_SHARE / max(1, len(shifts))
    return [shift for shift in shifts if shift.p_value < level]


def paired_verdict(
    pairs: Iterable[RunPair],
    alpha: float = 0.05,
    margin: float | None = None,
    resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> PairedResult:
    """Compare matched runs: percentile interval, medal flips, and the verdict.

    Args:
        pairs: The matched runs of one agent (baseline and new).
        alpha: Significance level; the percentile interval has level ``1 - alpha``.
        margin: Largest mean percentile drop (points) allowed whatever the noise; ``None``
            turns the margin rule off.
        resamples: Bootstrap resamples.
        seed: Seed of the bootstrap.
    """
    if not 0 < alpha < 1:
        raise ValueError("alpha lies strictly between 0 and 1")
    matched = list(pairs)
    by_competition: dict[str, list[float]] = defaultdict(list)
    for pair in matched:
        change = pair.percentile_change
        if change is not None:
            by_competition[pair.competition_id].append(change)
    interval = (
        cluster_bootstrap(by_competition, 1 - alpha, resamples, seed) if by_competition else None
    )
    gained = sum(1 for p in matched if p.new_medal and not p.base_medal)
    lost = sum(1 for p in matched if p.base_medal and not p.new_medal)
    medals = exact_mcnemar(gained, lost)
    shifts = competition_shifts(by_competition)
    verdict, reason = _decide(interval, medals, significant(shifts, alpha), alpha, margin)
    return PairedResult(
        pairs=len(matched),
        competitions=len({p.competition_id for p in matched}),
        percentile=interval,
        medals=medals,
        verdict=verdict,
        reason=reason,
        alpha=alpha,
        margin=margin,
        shifts=shifts,
    )


def _decide(
    interval: Interval | None,
    medals: McNemar,
    moved: Sequence[CompetitionShift],
    alpha: float,
    margin: float | None,
) -> tuple[Verdict, str]:
    medal_test = f"medals +{medals.gained}/-{medals.lost} (McNemar p={medals.p_value:.3g})"
    medals_worse = medals.p_value < alpha and medals.lost > medals.gained
    medals_better = medals.p_value < alpha and medals.gained > medals.lost
    if interval is None:
        if medals_worse:
            return "regression", f"medals lost significantly: {medal_test}"
        if medals_better:
            return "improvement", f"medals gained significantly: {medal_test}"
        return "no significant change", f"no percentiles to compare; {medal_test}"
    shown = describe_interval(interval)
    if interval.high < 0:
        return "regression", f"percentile dropped significantly: {shown}; {medal_test}"
    if medals_worse:
        return "regression", f"medals lost significantly: {medal_test}; percentile {shown}"
    dropped = [shift for shift in moved if shift.change < 0]
    if dropped:
        named = ", ".join(shift.describe() for shift in dropped)
        return "regression", (
            f"competition(s) dropped beyond the seed noise: {named}; percentile {shown}; "
            f"{medal_test}"
        )
    if margin is not None and -interval.estimate > margin:
        return "regression", (
            f"mean percentile drop {-interval.estimate:.1f} points is beyond the allowed "
            f"{margin:g}: {shown}; {medal_test}"
        )
    raised = [shift.describe() for shift in moved if shift.change > 0]
    if interval.low > 0 or medals_better or raised:
        also = f"; gained beyond the seed noise: {', '.join(raised)}" if raised else ""
        return "improvement", f"percentile {shown}; {medal_test}{also}"
    return "no significant change", f"percentile {shown}; {medal_test}"


def p_text(p_value: float) -> str:
    """``p=0.031``; below one in a million ``p<1e-06`` (never a bare ``p=0``)."""
    return "p<1e-06" if p_value < 1e-6 else f"p={p_value:.2g}"


def describe_interval(interval: Interval) -> str:
    """``+1.2 points (95 % CI -0.4 to +2.8)``."""
    percent = round(interval.level * 100, 1)
    return (
        f"{interval.estimate:+.1f} points ({percent:g} % CI {interval.low:+.1f} to "
        f"{interval.high:+.1f})"
    )
