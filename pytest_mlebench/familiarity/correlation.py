"""Familiarity against results: Pearson's r with its Fisher-z interval, and the report lines. Pure.

Each competition contributes one point: its familiarity (mean log-probability per token of its
description; higher means better known) and, from a ``summary.json``, its medal rate (the share
of its runs that won any medal, over all agents) and its mean leaderboard percentile (the
summary's ``mean_percentile`` per agent, a failed run counting 0, weighted by the runs; the
medal's continuous companion, which still spreads where every run won the same or no medal). A
positive r would mean that a model does better where it knows the page better; the original
benchmark found none (r = -0.24). The interval is ``tanh(atanh(r) ± z / sqrt(n - 3))``, which
needs four competitions or more.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Correlation:
    """Pearson's r over ``n`` points, with its 95 % interval (``None`` when it cannot be had)."""

    r: float | None
    low: float | None
    high: float | None
    n: int

    def text(self) -> str:
        if self.r is None:
            return f"correlation: not defined over {self.n} competition(s) (needs 3 with spread)"
        shown = f"Pearson r = {self.r:+.2f}"
        if self.low is not None and self.high is not None:
            shown += f" (95 % CI {self.low:+.2f} to {self.high:+.2f})"
        return f"{shown}, n = {self.n} competition(s)"


def pearson(xs: Sequence[float], ys: Sequence[float]) -> Correlation:
    """Pearson's r of paired values, with the Fisher-z interval where ``n >= 4``."""
    n = len(xs)
    if n != len(ys):
        raise ValueError("pearson needs pairs")
    if n < 3:
        return Correlation(None, None, None, n)
    mean_x, mean_y = math.fsum(xs) / n, math.fsum(ys) / n
    sxx = math.fsum((x - mean_x) ** 2 for x in xs)
    syy = math.fsum((y - mean_y) ** 2 for y in ys)
    if sxx <= 0 or syy <= 0:
        return Correlation(None, None, None, n)
    r = math.fsum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True))
    r = max(-1.0, min(1.0, r / math.sqrt(sxx * syy)))
    if n < 4 or abs(r) == 1.0:
        return Correlation(r, None, None, n)
    z, spread = math.atanh(r), Z95 / math.sqrt(n - 3)
    return Correlation(r, math.tanh(z - spread), math.tanh(z + spread), n)


def medal_rates(summary: Mapping[str, Any]) -> dict[str, float]:
    """Per competition, the share of its runs (all agents) that won a medal, from a summary."""
    won: dict[str, list[int]] = {}
    for entry in summary.get("competitions", []):
        counts = won.setdefault(entry["competition_id"], [0, 0])
        for run in entry.get("runs", []):
            if run.get("outcome") == "skipped":
                continue
            counts[0] += 1 if run.get("medal") else 0
            counts[1] += 1
    return {cid: medals / runs for cid, (medals, runs) in won.items() if runs}


def mean_percentiles(summary: Mapping[str, Any]) -> dict[str, float]:
    """Per competition, the mean leaderboard percentile of its runs (all agents), from a
    summary; competitions without a leaderboard (no ``mean_percentile``) are left out."""
    sums: dict[str, list[float]] = {}
    for entry in summary.get("competitions", []):
        value, runs = entry.get("mean_percentile"), entry.get("seeds_run") or 0
        if isinstance(value, (int, float)) and runs > 0:
            totals = sums.setdefault(entry["competition_id"], [0.0, 0.0])
            totals[0] += value * runs
            totals[1] += runs
    return {cid: total / runs for cid, (total, runs) in sums.items()}


@dataclass(frozen=True)
class Results:
    """What a summary says of each competition: its medal rate (0-1) and mean percentile."""

    medal_rates: dict[str, float]
    percentiles: dict[str, float]

    @classmethod
    def of(cls, summary: Mapping[str, Any]) -> Results:
        return cls(medal_rates(summary), mean_percentiles(summary))


def report_lines(
    familiarity: Mapping[str, float], results: Results | None
) -> tuple[list[str], dict[str, Correlation]]:
    """One line per competition (familiarity; medal rate and percentile where known), then the
    correlation with each (keys ``medal_rate`` and ``percentile``; none without ``results``)."""
    lines = []
    for cid, value in sorted(familiarity.items(), key=lambda item: -item[1]):
        shown = ""
        if results is not None and cid in results.medal_rates:
            shown += f"  medal rate {results.medal_rates[cid] * 100:5.1f} %"
        if results is not None and cid in results.percentiles:
            shown += f"  percentile {results.percentiles[cid]:5.1f}"
        lines.append(f"  {cid:<48} mean log-prob {value:8.3f}{shown}")
    if results is None:
        return lines, {}
    correlations = {}
    for key, values, name in (
        ("medal_rate", results.medal_rates, "medal rate"),
        ("percentile", results.percentiles, "leaderboard percentile"),
    ):
        common = sorted(set(familiarity) & set(values))
        correlations[key] = pearson([familiarity[c] for c in common], [values[c] for c in common])
        lines.append(f"familiarity against {name}: {correlations[key].text()}")
    return lines, correlations
