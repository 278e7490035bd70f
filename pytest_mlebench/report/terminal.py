"""Text tables for the terminal: the final medal table and the per-split headline numbers.

Each number sits beside the leaderboard percentile, the medal's continuous companion; a
competition whose runs used the LLM gateway also shows their calls, tokens and cost.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from pytest_mlebench.medals import MEDALS
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.aggregate import group_stats, groups_by_split, ran
from pytest_mlebench.report.anytime_rates import rates_at_marks, rates_text
from pytest_mlebench.report.gpu_use import gpu_line, gpu_section
from pytest_mlebench.report.llm_usage import usage_brief, usage_totals
from pytest_mlebench.report.original_rates import medal_rates
from pytest_mlebench.report.percentiles import PercentileBasis, mean_percentile
from pytest_mlebench.report.run_classes import class_cell, group_classes_text


def estimate_text(metric: dict[str, Any]) -> str:
    """``33.3 ± 12.0 % (95 % CI 9.8-56.8)``, or just the mean when there is one seed."""
    mean, sem, ci = metric.get("mean"), metric.get("sem"), metric.get("ci95")
    if mean is None:
        return "-"
    if sem is None or ci is None:
        return f"{mean:.1f} %"
    return f"{mean:.1f} ± {sem:.1f} % (95 % CI {ci[0]:.1f} to {ci[1]:.1f})"


def percentile_text(stats: dict[str, Any] | None) -> str | None:
    """``62.0 ± 3.1 (95 % CI 55.9 to 68.1)``; ``None`` when the group has no percentiles."""
    if not stats or stats.get("mean") is None:
        return None
    return estimate_text(stats).replace(" %", "", 1)


def group_line(name: str, stats: dict[str, Any]) -> str:
    """The headline numbers of one group (a split or overall)."""
    metrics = stats["metrics"]
    pass_at = ", ".join(
        f"pass@{k} {value['value']:.1f} %" for k, value in stats["pass_at_k"].items()
    )
    not_run = f" ({stats['not_run']} not run)" if stats["not_run"] else ""
    line = (
        f"{name}: {stats['competitions']} competitions, {stats['runs']} runs{not_run}; "
        f"any medal {estimate_text(metrics['any_medal'])}; "
        f"valid {estimate_text(metrics['valid_submission'])}"
    )
    percentile = percentile_text(stats.get("percentile"))
    if percentile is not None:
        line += f"; percentile {percentile}"
    return f"{line}; {pass_at}" if pass_at else line


def medal_table(records: Sequence[RunRecord]) -> list[str]:
    """One row per (agent, competition) with the medal (or the failure class) of each seed and
    the medals over the runs that count, then split totals, the classes and the runs the rates
    left out (``infra``) with why."""
    if not records:
        return []
    rows: dict[tuple[str, str], dict[int, str]] = defaultdict(dict)
    for record in records:
        rows[(record.agent, record.competition_id)][record.seed] = class_cell(record)
    agents = {agent for agent, _ in rows}
    bases = {agent: PercentileBasis.of(r for r in records if r.agent == agent) for agent in agents}
    lines = ["medal table:"]
    for (agent, competition), seeds in sorted(rows.items()):
        cells = "  ".join(f"s{seed} {cell:<7}" for seed, cell in sorted(seeds.items()))
        won = sum(1 for cell in seeds.values() if cell in MEDALS)
        ran_count = sum(1 for cell in seeds.values() if cell not in ("not run", "infra"))
        name = competition if len(agents) == 1 else f"{competition} ({agent})"
        mine = [r for r in records if (r.agent, r.competition_id) == (agent, competition)]
        percentile = mean_percentile([r for r in mine if ran(r)], bases[agent])
        shown = "" if percentile is None else f"  percentile {percentile:.1f}"
        llm = usage_brief(usage_totals(mine))
        shown += "" if llm is None else f"  LLM {llm}"
        lines.append(f"  {name:<32} {cells}  medals {won}/{ran_count}{shown}")
    for agent in sorted(agents):
        mine = [r for r in records if r.agent == agent]
        prefix = "" if len(agents) == 1 else f"{agent} "
        basis = bases[agent]
        for split, runs in groups_by_split(mine).items():
            lines.append(f"  {group_line(f'{prefix}split {split}', group_stats(runs, basis))}")
        overall = group_stats(mine, basis)
        lines.append(f"  {group_line(f'{prefix}overall', overall)}")
        classes = group_classes_text(overall)
        if classes is not None:
            lines.append(f"  {prefix}overall {classes}")
        rates = medal_rates(mine)
        if rates is not None:
            lines.append(f"  {prefix}overall: {rates.text()}")
        at_marks = rates_at_marks(mine)
        if at_marks is not None:
            lines.append(f"  {prefix}overall {rates_text(at_marks)}")
    gpus = gpu_line(gpu_section(records))
    return lines if gpus is None else [*lines, f"  {gpus}"]
