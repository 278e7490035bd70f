"""Cost in the comparison: tokens and money of the matched runs, before and after. Pure.

A run that used the LLM gateway carries its account in its record, and each run entry of
``summary.json`` has it as ``llm_usage`` (``input_tokens``, ``output_tokens``, ``cost_usd``, …;
:mod:`pytest_mlebench.report.usage`). The comparison adds one line per pair of agents, over the
runs that matched and carry usage on both sides. Nothing is shown, and nothing is made up, for
runs without a gateway (``llm_usage`` is ``null``).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.report.matching import RunKey

USAGE_KEYS = ("input_tokens", "output_tokens", "cost_usd")


@dataclass(frozen=True)
class CostChange:
    """Summed usage of the matched runs that carry it on both sides."""

    runs: int
    base: dict[str, float]
    new: dict[str, float]

    def line(self) -> str:
        """``cost over 6 matched run(s): tokens 1200 -> 900 (-25.0 %), $0.40 -> $0.30``."""
        tokens = [
            sum(side.get(k, 0.0) for k in ("input_tokens", "output_tokens"))
            for side in (self.base, self.new)
        ]
        change = f" ({100 * (tokens[1] - tokens[0]) / tokens[0]:+.1f} %)" if tokens[0] else ""
        money = ""
        if "cost_usd" in self.base and "cost_usd" in self.new:
            money = f", ${self.base['cost_usd']:.2f} -> ${self.new['cost_usd']:.2f}"
        return (
            f"cost over {self.runs} matched run(s): tokens {tokens[0]:.0f} -> {tokens[1]:.0f}"
            f"{change}{money}"
        )


def usage_table(summary: dict[str, Any], agent: str) -> dict[RunKey, dict[str, float]]:
    """Per (competition, seed) of ``agent``: the numeric usage keys its run entry carries."""
    table = {}
    for entry in summary.get("competitions", []):
        if entry.get("agent") != agent:
            continue
        for run in entry.get("runs", []):
            usage = run.get("llm_usage")
            if isinstance(usage, dict):
                numbers = {k: float(usage[k]) for k in USAGE_KEYS if _number(usage.get(k))}
                if numbers:
                    table[(entry["competition_id"], int(run["seed"]))] = numbers
    return table


def _number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


def cost_change(
    base: dict[str, Any], new: dict[str, Any], agents: tuple[str, str], keys: Iterable[RunKey]
) -> CostChange | None:
    """Usage of the matched runs ``keys`` summed per side; ``None`` when no run carries it."""
    before, after = usage_table(base, agents[0]), usage_table(new, agents[1])
    both = [key for key in keys if key in before and key in after]
    if not both:
        return None
    shared = [k for k in USAGE_KEYS if all(k in before[x] and k in after[x] for x in both)]
    return CostChange(
        len(both),
        {k: math.fsum(before[x][k] for x in both) for k in shared},
        {k: math.fsum(after[x][k] for x in both) for k in shared},
    )
