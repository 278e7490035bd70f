"""Familiarity against medals: Pearson's r with its Fisher-z interval, and the report lines. Pure.

Each competition contributes one point: its familiarity (mean prompt log-probability of its
description; higher means better known) and its medal rate in a ``summary.json`` (the share of
its runs that won any medal, over all agents). A positive r would mean that a model wins more
where it knows the page better; the original benchmark found none (r = -0.24). The interval is
``tanh(atanh(r) ± z / sqrt(n - 3))``, which needs four competitions or more.
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


def report_lines(
    familiarity: Mapping[str, float], rates: Mapping[str, float] | None
) -> tuple[list[str], Correlation | None]:
    """One line per competition (familiarity, and medal rate where known) and the correlation."""
    lines = []
    for cid, value in sorted(familiarity.items(), key=lambda item: -item[1]):
        rate = None if rates is None else rates.get(cid)
        shown = "" if rate is None else f"  medal rate {rate * 100:5.1f} %"
        lines.append(f"  {cid:<48} mean log-prob {value:8.3f}{shown}")
    if rates is None:
        return lines, None
    common = sorted(set(familiarity) & set(rates))
    result = pearson([familiarity[c] for c in common], [rates[c] for c in common])
    return [*lines, f"familiarity against medal rate: {result.text()}"], result
