"""LLM usage of runs (the gateway's account in each record): totals, cost per medal, text lines.

Pure functions over records. A run without a gateway adds nothing; a run whose cost is unknown (a
model missing from the price table) adds its tokens but not its cost, and is counted in
``runs_cost_unknown`` so a total is never silently short. ``summary.json`` keeps these numbers
under ``llm_usage`` (per run, per competition, per agent and for the session; docs/reports.md),
with ``truncated_calls``, the answers cut at their token cap (0 for records made before it was
counted).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from pytest_mlebench.records.run_record import RunRecord


def usage_totals(records: Sequence[RunRecord]) -> dict[str, Any] | None:
    """Calls, tokens and cost of ``records``; ``None`` when no run used the gateway."""
    used = [r for r in records if r.gateway is not None]
    if not used:
        return None
    accounts = [r.gateway or {} for r in used]
    costs = [a.get("cost_usd") for a in accounts]
    known = [float(c) for c in costs if c is not None]
    medals = sum(1 for r in used if r.medal)
    cost = math.fsum(known) if known or not costs else None
    return {
        "runs": len(used),
        "calls": sum(int(a.get("calls", 0)) for a in accounts),
        "input_tokens": sum(int(a.get("input_tokens", 0)) for a in accounts),
        "output_tokens": sum(int(a.get("output_tokens", 0)) for a in accounts),
        "cost_usd": cost,
        "runs_cost_unknown": len(costs) - len(known),
        "budget_exhausted_runs": sum(1 for a in accounts if a.get("budget_exhausted")),
        "truncated_calls": sum(int(a.get("truncated_calls") or 0) for a in accounts),
        "medals": medals,
        "cost_per_medal_usd": cost / medals if cost is not None and medals else None,
    }


def run_usage(record: RunRecord) -> dict[str, Any] | None:
    """What ``summary.json`` keeps of one run's account."""
    account = record.gateway
    if account is None:
        return None
    keys = ("calls", "input_tokens", "output_tokens", "cost_usd", "budget_exhausted")
    # truncated_calls: absent from records written before it was counted, read as 0
    return {**{key: account.get(key) for key in keys}, "truncated_calls": _truncated(account)}


def _truncated(usage: dict[str, Any]) -> int:
    return int(usage.get("truncated_calls") or 0)


def cost_text(cost: float | None) -> str:
    """``$0.0123``, or ``cost unknown`` (a model missing from the price table)."""
    return "cost unknown" if cost is None else f"${cost:.4f}"


def usage_brief(usage: dict[str, Any] | None) -> str | None:
    """``3 calls, 1200 tokens, $0.0040`` of a run entry or totals; ``None`` without a gateway.

    Reads ``calls``, ``input_tokens``, ``output_tokens`` and ``cost_usd`` (both shapes have them),
    so the terminal, ``summary.md`` and the HTML page say it in the same words.
    """
    if not usage:
        return None
    tokens = int(usage.get("input_tokens") or 0) + int(usage.get("output_tokens") or 0)
    text = f"{usage.get('calls') or 0} calls, {tokens} tokens, {cost_text(usage.get('cost_usd'))}"
    per_medal = usage.get("cost_per_medal_usd")
    if per_medal is not None:
        text += f" (${per_medal:.4f} per medal)"
    if usage.get("budget_exhausted") is True or usage.get("budget_exhausted_runs"):
        text += ", budget exhausted"
    if _truncated(usage):
        text += f", {_truncated(usage)} answer(s) cut at the cap"
    return text


def usage_lines(records: Sequence[RunRecord]) -> list[str]:
    """The terminal's LLM line (and one per unpriced model), empty without a gateway."""
    totals = usage_totals(records)
    if totals is None:
        return []
    cost = "cost unknown" if totals["cost_usd"] is None else f"${totals['cost_usd']:.4f}"
    if totals["runs_cost_unknown"] and totals["cost_usd"] is not None:
        cost += f" (+{totals['runs_cost_unknown']} run(s) of unknown cost)"
    per_medal = totals["cost_per_medal_usd"]
    line = (
        f"LLM: {totals['calls']} calls, {totals['input_tokens']} input + "
        f"{totals['output_tokens']} output tokens, {cost} over {totals['runs']} run(s)"
    )
    if per_medal is not None:
        line += f", ${per_medal:.4f} per medal"
    if totals["budget_exhausted_runs"]:
        line += f"; {totals['budget_exhausted_runs']} run(s) exhausted their budget"
    if totals["truncated_calls"]:
        line += f"; {totals['truncated_calls']} answer(s) cut at the answer cap"
    messages = sorted({m for r in records for m in (r.gateway or {}).get("messages", [])})
    return [line, *(f"LLM: {message}" for message in messages)]
