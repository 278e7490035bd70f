"""``summary.md``: the session in Markdown, for a CI job summary or a merge-request comment.

Written by the product (at the end of a session and by ``mlebench report``), never by a CI recipe:
the gate's verdict with its reason, the overall numbers per agent, one row per competition (medal of
each seed, medal rate, mean leaderboard percentile) and the category profile; when runs used the LLM
gateway, their calls, tokens, cost and cost per medal too. When ``$GITHUB_STEP_SUMMARY`` names a
file (GitHub Actions sets it for every step), the same text is appended there.
:func:`render_markdown` is pure; the writers are the two functions at the end.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.failure_summary.views import markdown_lines as failure_markdown
from pytest_mlebench.integrity.reporting import markdown_lines as integrity_markdown
from pytest_mlebench.manifest.render import manifest_markdown
from pytest_mlebench.report.anytime_views import anytime_markdown
from pytest_mlebench.report.baseline_gate import GateResult
from pytest_mlebench.report.category_profiles import build_profile, profile_rows
from pytest_mlebench.report.engineering_views import engineering_markdown
from pytest_mlebench.report.llm_usage import usage_brief
from pytest_mlebench.report.markdown_table import table
from pytest_mlebench.report.paired_comparison import describe_interval
from pytest_mlebench.report.run_classes import group_classes_text, run_cell

STEP_SUMMARY_ENV = "GITHUB_STEP_SUMMARY"


def _estimate(stats: Mapping[str, Any] | None, unit: str = " %") -> str:
    if not stats or stats.get("mean") is None:
        return "-"
    sem = stats.get("sem")
    spread = f" ± {sem:.1f}" if sem is not None else ""
    return f"{stats['mean']:.1f}{spread}{unit}"


def _number(value: float | None, unit: str = "") -> str:
    return "-" if value is None else f"{value:.1f}{unit}"


def gate_section(gate: GateResult) -> list[str]:
    """The verdict first (passed/FAILED, the words the gate used), then the numbers behind it."""
    status = "passed" if gate.ok else "FAILED"
    # the rate-drop gate's verdict is the same word again ("FAILED — failed"): say it once
    repeated = gate.verdict.lower() in (status.lower(), "passed", "failed")
    lines = [f"## Gate: {status}" if repeated else f"## Gate: {status} — {gate.verdict}", ""]
    lines.append(f"{gate.mode} gate against `{gate.baseline}`: {gate.reason}")
    lines.append("")
    if gate.agents:
        rows = [["agent", "matched runs", "percentile change", "medal flips", "McNemar p",
                 "unmatched (baseline / new)", "verdict"]]  # fmt: skip
        for agent in gate.agents:
            result, matching = agent.result, agent.matching
            change = describe_interval(result.percentile) if result.percentile else "-"
            rows.append([
                matching.new_agent,
                f"{result.pairs} on {result.competitions} competitions",
                change,
                f"+{result.medals.gained} / -{result.medals.lost}",
                f"{result.medals.p_value:.3g}",
                f"{len(matching.only_base)} / {len(matching.only_new)}",
                result.verdict,
            ])  # fmt: skip
        lines += [*table(rows), ""]
        lines += [f"- {agent.matching.new_agent}: {agent.cost.line()}"
                  for agent in gate.agents if agent.cost]  # fmt: skip
    else:
        rows = [["agent", "group", "metric", "baseline", "new", "verdict"]]
        for check in gate.comparison.checks:
            rows.append([check.agent, check.group, check.metric, f"{check.base:.1f} %",
                         f"{check.new:.1f} %", "FAIL" if check.failed else "ok"])  # fmt: skip
        if len(rows) > 1:
            lines += [*table(rows), ""]
    lines += [f"- {line}" for check in gate.costs for line in check.lines()]
    lines += [f"- note: {note}" for note in gate.notes]
    return [*lines, ""] if gate.notes or gate.costs else lines


def overall_section(summary: Mapping[str, Any]) -> list[str]:
    agents = summary.get("agents", {})
    llm = any(section.get("llm_usage") for section in agents.values())
    head = ["agent", "competitions", "runs", "any medal", "valid", "mean percentile"]
    rows = [head + (["LLM usage"] if llm else [])]
    for agent, section in agents.items():
        overall = section["overall"]
        if not overall["runs"] and section.get("engineering"):
            continue  # only engineering tasks: their own table below
        rows.append([
            agent,
            str(overall["competitions"]),
            str(overall["runs"]),
            _estimate(overall["metrics"]["any_medal"]),
            _estimate(overall["metrics"]["valid_submission"]),
            _estimate(overall.get("percentile"), ""),
        ] + ([usage_brief(section.get("llm_usage")) or "-"] if llm else []))  # fmt: skip
    lines = ["## Overall", "", *table(rows), ""] if len(rows) > 1 or not agents else []
    for agent, section in agents.items():
        classes = group_classes_text(section["overall"]) if section["overall"]["runs"] else None
        lines += [] if classes is None else [f"{agent}: {classes}", ""]
    total = usage_brief(summary.get("llm_usage"))
    if total is not None and len(agents) > 1:
        lines += [f"LLM usage of all runs: {total}", ""]
    return lines


def competitions_section(summary: Mapping[str, Any]) -> list[str]:
    every = summary.get("competitions", [])
    entries = [entry for entry in every if entry.get("kind") != "engineering"]
    if not entries and every:
        return []  # only engineering tasks: their own section
    several = len({entry["agent"] for entry in entries}) > 1
    llm = any(entry.get("llm_usage") for entry in entries)
    head = ["competition", "medal per seed", "medal rate", "mean percentile", "mean score"]
    rows = [(["agent"] if several else []) + head + (["LLM usage"] if llm else [])]
    for entry in entries:
        seeds = ", ".join(f"s{run['seed']} {run_cell(run)}" for run in entry["runs"])
        score = entry.get("mean_score")
        rows.append(([entry["agent"]] if several else []) + [
            entry["competition_id"],
            seeds,
            _number(entry.get("medal_rate"), " %"),
            _number(entry.get("mean_percentile")),
            "-" if score is None else f"{score:.5g}",
        ] + ([usage_brief(entry.get("llm_usage")) or "-"] if llm else []))  # fmt: skip
    return ["## Competitions", "", *table(rows), ""]


def profile_section(summary: Mapping[str, Any], baseline: Mapping[str, Any] | None) -> list[str]:
    profile = build_profile(dict(summary), dict(baseline) if baseline is not None else None)
    if not profile.categories:
        return []
    return [
        "## Category profile",
        "",
        "Any-medal rate (%) and mean leaderboard percentile per modality, complexity and split "
        "(mean over seeds).",
        "",
        *table(profile_rows(profile)),
        "",
    ]


def render_markdown(
    summary: Mapping[str, Any],
    gate: GateResult | None = None,
    baseline: Mapping[str, Any] | None = None,
    gate_error: str | None = None,
    history: Sequence[Mapping[str, Any]] = (),
    title: str = "MLE-bench summary",
) -> str:
    """The whole ``summary.md``.

    Args:
        summary: The session's summary (``summary.json`` layout).
        gate: The gate's result, when a baseline was compared.
        baseline: The baseline summary, shown beside the session in the category profile.
        gate_error: Why the gate could not compare (it failed), when it could not.
        history: Earlier summaries, oldest first: the engineering table's "last 5".
        title: The heading.
    """
    agents = ", ".join(summary.get("agents", {}))
    lines = [f"# {title}", "", f"Agents: {agents or '-'} · created {summary.get('created_at', '')}"]
    lines.append("")
    lines += manifest_markdown(summary.get("manifest"))  # the conditions of the numbers below
    if gate is not None:
        lines += gate_section(gate)
    elif gate_error is not None:
        lines += ["## Gate: FAILED", "", gate_error, ""]
    lines += overall_section(summary)
    lines += competitions_section(summary)
    lines += anytime_markdown(summary)
    lines += profile_section(summary, baseline)
    lines += failure_markdown(summary)
    lines += integrity_markdown([r for e in summary.get("competitions", []) for r in e["runs"]])
    lines += engineering_markdown(summary, baseline, history)
    return "\n".join(lines).rstrip() + "\n"


def write_markdown(path: Path, text: str) -> Path:
    """Write ``summary.md`` atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_atomically(path, text)


def append_step_summary(text: str, environ: Mapping[str, str] | None = None) -> Path | None:
    """Append ``text`` to the file ``$GITHUB_STEP_SUMMARY`` names; ``None`` when it is unset."""
    target = (os.environ if environ is None else environ).get(STEP_SUMMARY_ENV)
    if not target:
        return None
    path = Path(target)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(text if text.endswith("\n") else text + "\n")
    return path
