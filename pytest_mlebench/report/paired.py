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

:func:`paired_verdict` calls a change a ``regression`` when either test says the new session is
worse at level ``alpha`` (the percentile interval lies below zero, or medals were lost
significantly more often than gained), or when the mean percentile drop is beyond the allowed
margin; an ``improvement`` when a test says it is better and neither says worse; else
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
    verdict, reason = _decide(interval, medals, alpha, margin)
    return PairedResult(
        pairs=len(matched),
        competitions=len({p.competition_id for p in matched}),
        percentile=interval,
        medals=medals,
        verdict=verdict,
        reason=reason,
        alpha=alpha,
        margin=margin,
    )


def _decide(
    interval: Interval | None, medals: McNemar, alpha: float, margin: float | None
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
    if margin is not None and -interval.estimate > margin:
        return "regression", (
            f"mean percentile drop {-interval.estimate:.1f} points is beyond the allowed "
            f"{margin:g}: {shown}; {medal_test}"
        )
    if interval.low > 0 or medals_better:
        return "improvement", f"percentile {shown}; {medal_test}"
    return "no significant change", f"percentile {shown}; {medal_test}"


def describe_interval(interval: Interval) -> str:
    """``+1.2 points (95 % CI -0.4 to +2.8)``."""
    percent = round(interval.level * 100, 1)
    return (
        f"{interval.estimate:+.1f} points ({percent:g} % CI {interval.low:+.1f} to "
        f"{interval.high:+.1f})"
    )
