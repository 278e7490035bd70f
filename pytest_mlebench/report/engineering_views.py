"""The engineering tasks in ``summary.md`` and on the HTML page: dimensions, radar, trend, cards.

Both read the ``summary.json`` layout only (the session's, the baseline's, earlier ones), so a
report rebuilt from files shows what the session showed. Per agent:

- the dimension table ``dimension | weight | score | baseline | Δ | last 5``; the arrow after Δ
  comes from a paired test over matched (task, seed) runs — a cluster bootstrap over tasks of the
  per-run changes (:func:`~pytest_mlebench.report.paired_comparison.cluster_bootstrap`): ``↑``/``↓``
  when the interval at the gate's level lies above/below zero, ``→`` when it holds zero, nothing
  when there is no baseline or fewer than two tasks to resample;
- the radar of the five dimensions (baseline dashed, ± SEM whiskers) and one over categories;
- one trend strip per dimension from ``--history`` summaries;
- the failed checks with their teaching card (why it matters, how to fix), grouped by dimension.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from pytest_mlebench.report.check_cards import CheckCard
from pytest_mlebench.report.compare import pair_agents
from pytest_mlebench.report.engineering_stats import DIMENSIONS
from pytest_mlebench.report.markdown_table import table
from pytest_mlebench.report.paired_comparison import cluster_bootstrap
from pytest_mlebench.report.radar import RadarSeries, radar_chart, trend_strip
from pytest_mlebench.report.score_history import dimension_trend

Layout = Mapping[str, Any]
AXES = ("score", *DIMENSIONS)


def sections(summary: Layout) -> dict[str, Mapping[str, Any]]:
    """Agent → its engineering section, for the agents that ran tasks."""
    return {
        agent: section["engineering"]
        for agent, section in (summary.get("agents") or {}).items()
        if section.get("engineering")
    }


def run_values(summary: Layout, agent: str) -> dict[tuple[str, int], dict[str, float]]:
    """Per verified (task, seed) of ``agent``: its score and dimension scores (0-100)."""
    table: dict[tuple[str, int], dict[str, float]] = {}
    for entry in summary.get("competitions") or ():
        if entry.get("agent") != agent or entry.get("kind") != "engineering":
            continue
        for run in entry.get("runs") or ():
            if run.get("task_score") is None:
                continue
            values = {"score": float(run["task_score"])}
            values.update({k: float(v) for k, v in (run.get("dimensions") or {}).items()})
            table[(entry["competition_id"], int(run["seed"]))] = values
    return table


def dimension_arrows(
    base: Layout, new: Layout, base_agent: str, new_agent: str, alpha: float = 0.05
) -> dict[str, str]:
    """``↑``/``↓``/``→`` per axis (see the module docstring); axes it cannot judge are left out."""
    before, after = run_values(base, base_agent), run_values(new, new_agent)
    arrows = {}
    for axis in AXES:
        changes: dict[str, list[float]] = defaultdict(list)
        for key in sorted(before.keys() & after.keys()):
            if axis in before[key] and axis in after[key]:
                changes[key[0]].append(after[key][axis] - before[key][axis])
        if len(changes) < 2:
            continue
        interval = cluster_bootstrap(changes, 1 - alpha)
        arrows[axis] = "↑" if interval.low > 0 else ("↓" if interval.high < 0 else "→")
    return arrows


def _mean(stats: Mapping[str, Any] | None) -> float | None:
    value = (stats or {}).get("mean")
    return None if value is None else float(value)


def _shown(stats: Mapping[str, Any] | None) -> str:
    mean = _mean(stats)
    if mean is None:
        return "-"
    sem = (stats or {}).get("sem")
    return f"{mean:.1f}" + (f" ± {sem:.1f}" if sem is not None else "")


def _axis_stats(section: Mapping[str, Any], axis: str) -> Mapping[str, Any] | None:
    if axis == "score":
        return section.get("score")
    return (section.get("dimensions") or {}).get(axis)


def dimension_rows(
    summary: Layout,
    agent: str,
    baseline: Layout | None = None,
    history: Sequence[Layout] = (),
) -> list[list[str]]:
    """The dimension table of ``agent``: header and one row per axis."""
    section = sections(summary)[agent]
    base_agent = _base_agent(baseline, agent)
    base_section = sections(baseline).get(base_agent or "") if baseline else None
    arrows = {}
    if baseline and base_agent:
        arrows = dimension_arrows(baseline, summary, base_agent, agent)
    trend = dimension_trend(history, agent)
    weights = section.get("weights") or {}
    rows = [["dimension", "weight", "score", "baseline", "Δ", "last 5"]]
    for axis in AXES:
        mean = _mean(_axis_stats(section, axis))
        base = _mean(_axis_stats(base_section, axis)) if base_section else None
        delta = "-" if mean is None or base is None else f"{mean - base:+.1f}"
        if delta != "-" and axis in arrows:
            delta += f" {arrows[axis]}"
        last = [value for _, value in trend.get(axis, [])][-5:]
        weight = "" if axis == "score" else f"{float(weights.get(axis, 0.0)):.2f}"
        rows.append(
            [
                axis,
                weight,
                _shown(_axis_stats(section, axis)),
                "-" if base is None else f"{base:.1f}",
                delta,
                " · ".join("-" if v is None else f"{v:.0f}" for v in last) or "-",
            ]
        )
    return rows


def task_rows(summary: Layout, agent: str) -> list[list[str]]:
    """One row per task ``agent`` ran: category, each seed's outcome and score, the means."""
    per_task = sections(summary)[agent].get("per_task") or {}
    rows = [["task", "category", "runs (seed: score, outcome)", "pass rate", "mean score"]]
    for entry in summary.get("competitions") or ():
        if entry.get("agent") != agent or entry.get("kind") != "engineering":
            continue
        runs = ", ".join(
            f"s{run.get('seed')}: "
            + ("-" if run.get("task_score") is None else f"{run['task_score']:.1f}")
            + f" {run.get('outcome')}"
            for run in entry.get("runs") or ()
        )
        stats = per_task.get(entry["competition_id"]) or {}
        rate = stats.get("pass_rate")
        rows.append(
            [
                entry["competition_id"],
                str(entry.get("category") or "-"),
                runs,
                "-" if rate is None else f"{rate:.0f} %",
                _shown(stats.get("score")),
            ]
        )
    return rows


def _html_table(rows: list[list[str]], css: str) -> str:
    cells = ["".join(f"<th>{escape(c)}</th>" for c in rows[0])]
    cells += ["".join(f"<td>{escape(c)}</td>" for c in row) for row in rows[1:]]
    return f'<table class="{css}">' + "".join(f"<tr>{r}</tr>" for r in cells) + "</table>"


def _base_agent(baseline: Layout | None, agent: str) -> str | None:
    if not baseline:
        return None
    pairs, _ = pair_agents(sections(baseline), [agent])
    return next((base for base, new in pairs if new == agent), None)


def failed_cards(summary: Layout, agent: str) -> dict[str, list[CheckCard]]:
    """Per dimension, the failed checks of ``agent``'s runs: task, seed, why, fix, evidence."""
    cards: dict[str, list[CheckCard]] = defaultdict(list)
    for entry in summary.get("competitions") or ():
        if entry.get("agent") != agent or entry.get("kind") != "engineering":
            continue
        for run in entry.get("runs") or ():
            for check in run.get("failed_checks") or ():
                shown = f"{entry['competition_id']} s{run.get('seed')}"
                cards[str(check.get("dimension", "other"))].append(CheckCard.of(check, shown))
    return dict(cards)


def engineering_markdown(
    summary: Layout, baseline: Layout | None = None, history: Sequence[Layout] = ()
) -> list[str]:
    """The ``summary.md`` lines of the engineering tasks (none when no agent ran one)."""
    found = sections(summary)
    if not found:
        return []
    lines = ["## Engineering tasks", ""]
    head = ["agent", "tasks", "verified runs", "passed", "pass rate", "score", "errors"]
    rows = [head] + [
        [
            agent,
            str(section.get("tasks", 0)),
            str(section.get("verified", 0)),
            str(section.get("passed", 0)),
            "-" if section.get("pass_rate") is None else f"{section['pass_rate']:.1f} %",
            _shown(section.get("score")),
            str(section.get("errors", 0)),
        ]
        for agent, section in found.items()
    ]
    lines += [*table(rows), ""]
    for agent in found:
        lines += [f"### Dimensions — {agent}", ""]
        lines += [*table(dimension_rows(summary, agent, baseline, history)), ""]
        lines += [f"### Tasks — {agent}", "", *table(task_rows(summary, agent)), ""]
        cards = failed_cards(summary, agent)
        if cards:
            lines += [f"#### Failed checks — {agent}", ""]
            for dimension in sorted(cards, key=_dimension_order):
                lines.append(f"- **{dimension}**")
                lines += [f"  - {card.markdown()}" for card in cards[dimension]]
            lines.append("")
    return lines


def _dimension_order(name: str) -> tuple[int, str]:
    return (DIMENSIONS.index(name) if name in DIMENSIONS else len(DIMENSIONS), name)


def _series(section: Mapping[str, Any], axes: Sequence[str], key: str) -> dict[str, Any]:
    stats = section.get(key) or {}
    if key == "categories":
        values = {a: _mean((stats.get(a) or {}).get("score")) for a in axes}
        sems = {a: ((stats.get(a) or {}).get("score") or {}).get("sem") for a in axes}
    else:
        values = {a: _mean(stats.get(a)) for a in axes}
        sems = {a: (stats.get(a) or {}).get("sem") for a in axes}
    return {"values": values, "sems": sems}


def radars_html(summary: Layout, baseline: Layout | None = None) -> list[str]:
    """The dimension radar and the category radar (where there are three categories or more)."""
    found = sections(summary)
    base_found = sections(baseline) if baseline else {}
    parts = []
    for key, axes, title in (
        ("dimensions", list(DIMENSIONS), "Score per dimension (0-100)"),
        ("categories", _categories(found, base_found), "Score per task category (0-100)"),
    ):
        if len(axes) < 3:
            continue
        series = [
            RadarSeries(f"{agent} (baseline)", **_series(section, axes, key), baseline=True)
            for agent, section in base_found.items()
        ]
        series += [RadarSeries(a, **_series(s, axes, key)) for a, s in found.items()]
        parts.append(radar_chart(axes, series, title))
    return parts


def _categories(*groups: Mapping[str, Mapping[str, Any]]) -> list[str]:
    names: list[str] = []
    for found in groups:
        for section in found.values():
            names += [name for name in section.get("categories") or {} if name not in names]
    return sorted(names)


def engineering_html(
    summary: Layout, baseline: Layout | None = None, history: Sequence[Layout] = ()
) -> str:
    """The page's section on engineering tasks (empty when no agent ran one)."""
    found = sections(summary)
    if not found:
        return ""
    parts = ['<h2 id="engineering">Engineering tasks</h2>', '<div class="radars">']
    parts += [*radars_html(summary, baseline), "</div>"]
    for agent in found:
        parts.append(f"<h3>Dimensions — {escape(agent)}</h3>")
        parts.append(_html_table(dimension_rows(summary, agent, baseline, history), "dimensions"))
        parts.append(f"<h3>Tasks — {escape(agent)}</h3>")
        parts.append(_html_table(task_rows(summary, agent), "tasks"))
        trend = dimension_trend(history, agent)
        if history and any(trend.values()):
            parts.append(f"<h3>Trend — {escape(agent)}</h3>")
            parts += [trend_strip(axis, trend[axis]) for axis in AXES if trend[axis]]
        cards = failed_cards(summary, agent)
        if cards:
            parts.append(f'<h3>Failed checks — {escape(agent)}</h3><ul class="cards">')
            for dimension in sorted(cards, key=_dimension_order):
                items = "".join(f"<li>{card.html()}</li>" for card in cards[dimension])
                parts.append(f"<li><b>{escape(dimension)}</b><ul>{items}</ul></li>")
            parts.append("</ul>")
    return "".join(parts)
