"""Cost in the comparison: tokens and money of the matched runs, before and after. Pure.

A run that used the LLM gateway carries its account in its record, and each run entry of
``summary.json`` has it as ``llm_usage`` (``input_tokens``, ``output_tokens``, ``cost_usd``, …;
:mod:`pytest_mlebench.report.llm_usage`). The comparison adds one line per pair of agents, over the
runs that matched and carry usage on both sides. Nothing is shown, and nothing is made up, for
runs without a gateway (``llm_usage`` is ``null``).

``--mle-max-cost-increase`` adds a cost check to the gate (:func:`cost_checks`): per pair of
agents, the mean cost per run of the runs matched by (competition, seed) whose cost is known on
both sides, baseline against new, may rise at most by a fraction of the baseline's (``0.2``,
``20%``) or by a dollar amount per run (``$0.05``). Per run, not per medal: cost per medal also
moves with the medal rate, which the rest of the gate already judges, and it has no value when a
side won no medal. When a side has no cost to compare the check fails and says which side lacks
it: a gate asked to watch the cost must not pass without looking.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.report.matching import RunKey
from pytest_mlebench.values.cost_limit import CostLimit

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


@dataclass(frozen=True)
class CostCheck:
    """The cost check of one pair of agents: mean cost per matched run, or why there is none.

    Attributes:
        agent: The new agent's name.
        limit: The allowed increase.
        runs: Matched runs with a known cost on both sides.
        base: Their mean cost per run in the baseline (``None`` when ``problem`` is set).
        new: Their mean cost per run now.
        unknown: Matched runs left out because a side's cost is unknown (unpriced model).
        problem: Why nothing could be compared (the check then fails).
    """

    agent: str
    limit: CostLimit
    runs: int = 0
    base: float | None = None
    new: float | None = None
    unknown: int = 0
    problem: str | None = None

    @property
    def failed(self) -> bool:
        if self.problem is not None or self.base is None or self.new is None:
            return True
        return self.new > self.limit.ceiling(self.base) + 1e-12

    def reason(self) -> str:
        """One sentence: the numbers and the verdict, or the problem."""
        if self.problem is not None or self.base is None or self.new is None:
            return f"{self.agent}: {self.problem or 'cost not compared'}"
        change = f" ({100 * (self.new - self.base) / self.base:+.1f} %)" if self.base else ""
        verdict = "more than" if self.failed else "within"
        return (
            f"{self.agent}: LLM cost per run ${self.base:.4f} -> ${self.new:.4f}{change} over "
            f"{self.runs} matched run(s), {verdict} the allowed {self.limit.text()}"
        )

    def lines(self) -> list[str]:
        """The reason, then a note on runs left out for an unknown cost."""
        lines = [f"cost: {self.reason()}" + ("  FAIL" if self.failed else "  ok")]
        if self.unknown:
            lines.append(
                f"cost: {self.unknown} matched run(s) left out: their cost is unknown (a model "
                "missing from the price table; add it with --mle-price-table FILE)"
            )
        return lines


def cost_checks(
    base: dict[str, Any], new: dict[str, Any], pairs: Iterable[tuple[str, str]], limit: CostLimit
) -> tuple[CostCheck, ...]:
    """The cost check of every pair (baseline agent, new agent)."""
    return tuple(_cost_check(base, new, pair, limit) for pair in pairs)


def _cost_check(
    base: dict[str, Any], new: dict[str, Any], agents: tuple[str, str], limit: CostLimit
) -> CostCheck:
    name = agents[1]
    before, after = usage_table(base, agents[0]), usage_table(new, agents[1])
    for side, table in (("the baseline", before), ("this session", after)):
        if not table:
            return CostCheck(name, limit, problem=_no_usage(side))
    matched = [key for key in before if key in after]
    known = [k for k in matched if "cost_usd" in before[k] and "cost_usd" in after[k]]
    unknown = len(matched) - len(known)
    if not known:
        why = (
            "no run of this session matches a baseline run by (competition, seed)"
            if not matched
            else "every matched run has an unknown cost (a model missing from the price table; "
            "add it with --mle-price-table FILE)"
        )
        return CostCheck(name, limit, unknown=unknown, problem=f"cost not compared: {why}")
    mean_before = math.fsum(before[k]["cost_usd"] for k in known) / len(known)
    mean_after = math.fsum(after[k]["cost_usd"] for k in known) / len(known)
    return CostCheck(name, limit, len(known), mean_before, mean_after, unknown)


def _no_usage(side: str) -> str:
    if side == "the baseline":
        return (
            "cost not compared: the baseline carries no LLM usage (written before the gateway "
            "recorded it, or its runs made no LLM call); write a new baseline, or drop "
            "--mle-max-cost-increase"
        )
    return (
        "cost not compared: this session carries no LLM usage (its runs made no LLM call through "
        "the gateway); drop --mle-max-cost-increase for an agent without an LLM"
    )
