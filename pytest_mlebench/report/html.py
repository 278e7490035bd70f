"""A self-contained HTML page of a summary: tables plus inline SVG charts, no scripts.

``mlebench report RESULTS --html DIR`` writes ``DIR/index.html``. The page shows, per agent: the
headline numbers per split, complexity and modality (mean ± SEM over seeds, 95 % CI, pass@k, mean
leaderboard percentile), a medal-rate chart per split (with the percentile), a score chart per
competition, a table of every run (with each run's and competition's LLM calls, tokens and cost when
they used the gateway, and the agent's cost per medal; each run links its own page, ``run.html``);
then the category profile (a table and grouped bars comparing the agents, or the session with the
baseline of ``--compare``), and what the merge found.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from html import escape
from pathlib import Path
from typing import Any

from pytest_mlebench.failure_summary.views import html_section as failure_html
from pytest_mlebench.integrity.reporting import cleared_text, too_good_text
from pytest_mlebench.manifest.render import manifest_html
from pytest_mlebench.medals import MEDALS
from pytest_mlebench.report.anytime_views import anytime_html
from pytest_mlebench.report.category_profiles import build_profile, profile_rows
from pytest_mlebench.report.charts import medal_rate_chart, profile_chart, score_chart
from pytest_mlebench.report.engineering_views import engineering_html
from pytest_mlebench.report.llm_usage import usage_brief
from pytest_mlebench.report.run_classes import group_classes_text
from pytest_mlebench.report.run_links import run_links_html, with_run_links
from pytest_mlebench.report.run_page.pages import run_page_link, write_run_pages
from pytest_mlebench.report.summary_json import node_text

STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px;
color:#1d2228;max-width:1200px}
h1{font-size:24px;margin-bottom:4px}h2{font-size:20px;margin-top:32px}h3{font-size:16px}
.meta{color:#59636e;font-size:13px}
table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}
th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f3f5f7}td.num{text-align:right;font-variant-numeric:tabular-nums}
.medal{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px;color:#111}
.gate-passed{color:#2f855a}.gate-failed{color:#b91c1c}.links a{margin:0 2px}
.medal-gold{background:#f2d16b}.medal-silver{background:#d5dadd}.medal-bronze{background:#e0a878}
.medal-none{background:#eef0f2;color:#59636e}
.outcome-failed,.outcome-error{color:#b42318}.outcome-skipped{color:#7a6a00}
.chart{display:block;margin:8px 0 20px}
.flag{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px}
.flag-high{background:#f8d0cc}.flag-medium{background:#fbe6b0}.flag-low,.flag-info{background:#e6ecf1}
.radars{display:flex;flex-wrap:wrap;gap:16px}.trend{display:inline-block;margin:2px 8px}
.cards li{margin:2px 0}
"""
RATE_COLUMNS = (
    ("submission_exists", "submission"),
    ("valid_submission", "valid"),
    ("above_median", "above median"),
    *((f"{medal}_medal", medal) for medal in MEDALS),
    ("any_medal", "any medal"),
)


def _estimate(metric: dict[str, Any]) -> str:
    mean, sem, ci = metric.get("mean"), metric.get("sem"), metric.get("ci95")
    if mean is None:
        return "–"
    if sem is None or not ci:
        return f"{mean:.1f} %"
    return f"{mean:.1f} ± {sem:.1f} %<br><small>CI {ci[0]:.1f} to {ci[1]:.1f}</small>"


def _percentile(stats: dict[str, Any] | None) -> str:
    if not stats or stats.get("mean") is None:
        return "–"
    sem = stats.get("sem")
    return f"{stats['mean']:.1f}" + ("" if sem is None else f" ± {sem:.1f}")


def _row(cells: Iterable[str], header: bool = False) -> str:
    tag = "th" if header else "td"
    return "<tr>" + "".join(f"<{tag}>{cell}</{tag}>" for cell in cells) + "</tr>"


def medal_badge(medal: str | None) -> str:
    name = medal or "none"
    text = medal or "no medal"
    return f'<span class="medal medal-{name}">{escape(text)}</span>'


def groups_table(groups: list[tuple[str, dict[str, Any]]]) -> str:
    """Headline numbers per group: counts, every rate (mean ± SEM, CI) and pass@k."""
    head = ["group", "competitions", "runs", "not run", *(label for _, label in RATE_COLUMNS)]
    head += ["mean percentile", "pass@k (any medal)"]
    rows = [_row(head, header=True)]
    for name, stats in groups:
        pass_at = ", ".join(
            f"pass@{k} {value['value']:.1f} %" for k, value in stats["pass_at_k"].items()
        )
        rows.append(
            _row(
                [
                    f"<b>{escape(name)}</b>",
                    str(stats["competitions"]),
                    str(stats["runs"]),
                    str(stats["not_run"]),
                    *(_estimate(stats["metrics"][key]) for key, _ in RATE_COLUMNS),
                    _percentile(stats.get("percentile")),
                    escape(pass_at) or "–",
                ]
            )
        )
    return '<table class="groups">' + "".join(rows) + "</table>"


def _run_cell(run: dict[str, Any]) -> str:
    score, percentile = run.get("score"), run.get("percentile")
    score_text = "no score" if score is None else f"{score:.5g}"
    if percentile is not None:
        score_text += f" (percentile {percentile:.1f})"
    wall = run.get("wall_seconds")
    wall_text = "" if wall is None else f", {wall:.0f} s"
    outcome = escape(run["outcome"])
    return (
        f"s{run['seed']}: {escape(score_text)} {medal_badge(run.get('medal'))} "
        f'<span class="outcome-{outcome}">{outcome}</span>{escape(wall_text)}'
        + (" <b>timeout</b>" if run.get("timed_out") else "")
        + f' <span class="class">{escape(str(run.get("failure_class") or ""))}</span>'
        + _integrity_badge(run.get("integrity"))
        + _usage_note(run.get("llm_usage"))
        + _node_text(run.get("node"))
        + run_page_link(run.get("href") if run.get("run_page") else None)
        + run_links_html(run.get("href"))
    )


def _usage_note(usage: dict[str, Any] | None) -> str:
    brief = usage_brief(usage)
    return "" if brief is None else f' <small class="llm">LLM {escape(brief)}</small>'


def usage_html(usage: dict[str, Any] | None, whose: str) -> str:
    """One line of LLM usage (calls, tokens, cost, cost per medal); empty without a gateway."""
    brief = usage_brief(usage)
    if brief is None:
        return ""
    unknown = (usage or {}).get("runs_cost_unknown")
    extra = f"; {unknown} run(s) of unknown cost (model not in the price table)" if unknown else ""
    return f'<p class="llm">LLM usage of {escape(whose)}: {escape(brief + extra)}</p>'


def _node_text(node: dict[str, Any] | None) -> str:
    """`` on host (ip, node abc12345)`` for a run on a Ray cluster (``--mle-ray``)."""
    return f' <span class="node">on {escape(node_text(node))}</span>' if node else ""


def _integrity_badge(integrity: dict[str, Any] | None) -> str:
    if not integrity or not integrity.get("flags"):
        return ""
    worst = escape(str(integrity.get("worst")))
    kinds = escape(", ".join(sorted({f["kind"] for f in integrity["flags"]})))
    withheld = (
        f" withheld {escape(str(integrity.get('earned_medal')))}"
        if integrity.get("medal_withheld")
        else ""
    )
    withheld += escape(too_good_text(integrity) or cleared_text(integrity))
    return f' <span class="flag flag-{worst}">{worst}: {kinds}{withheld}</span>'


def integrity_html(summary: dict[str, Any]) -> str:
    """Every flagged run with its flags, and the session's cross-run flags."""
    section = summary.get("integrity") or {}
    rows = [_row(["run", "severity", "check/rule", "reason"], header=True)]
    for entry in summary.get("competitions", []):
        for run in entry["runs"]:
            for flag in (run.get("integrity") or {}).get("flags", []):
                rows.append(
                    _row(
                        [
                            escape(f"{entry['competition_id']} s{run['seed']} ({entry['agent']})"),
                            f'<span class="flag flag-{escape(flag["severity"])}">'
                            f"{escape(flag['severity'])}</span>",
                            escape(f"{flag['kind']}/{flag['rule']}"),
                            escape(flag["reason"]),
                        ]
                    )
                )
    for flag in section.get("session_flags", []):
        rows.append(
            _row(
                [
                    "session",
                    escape(flag["severity"]),
                    escape(f"{flag['kind']}/{flag['rule']}"),
                    escape(flag["reason"]),
                ]
            )
        )
    counts = ", ".join(f"{n} {s}" for s, n in (section.get("flags_by_severity") or {}).items() if n)
    head = (
        f'<p class="meta">{section.get("runs_flagged", 0)} of {section.get("runs_checked", 0)} '
        f"runs flagged ({escape(counts or 'no flags')}); {section.get('medals_withheld', 0)} "
        "medal(s) withheld. Flags never change a score (docs/integrity.md).</p>"
    )
    return head + ("<table>" + "".join(rows) + "</table>" if len(rows) > 1 else "")


def competitions_table(entries: list[dict[str, Any]]) -> str:
    """Every competition: splits, complexity, each seed's score, medal, outcome and wall time."""
    head = [
        "competition",
        "splits",
        "complexity",
        "runs (seed: score, medal, outcome, time)",
        "medal rate",
        "valid rate",
        "mean percentile",
    ]
    llm = any(entry.get("llm_usage") for entry in entries)
    rows = [_row(head + (["LLM usage"] if llm else []), header=True)]
    for entry in entries:
        medal_rate = entry.get("medal_rate")
        valid_rate = entry.get("valid_rate")
        percentile = entry.get("mean_percentile")
        rows.append(
            _row(
                [
                    f"<b>{escape(entry['competition_id'])}</b>",
                    escape(", ".join(entry.get("splits") or [])),
                    escape(str(entry.get("complexity") or "")),
                    "<br>".join(_run_cell(run) for run in entry["runs"]),
                    "–" if medal_rate is None else f"{medal_rate:.0f} %",
                    "–" if valid_rate is None else f"{valid_rate:.0f} %",
                    "–" if percentile is None else f"{percentile:.1f}",
                    *([escape(usage_brief(entry.get("llm_usage")) or "–")] if llm else []),
                ]
            )
        )
    return '<table class="competitions">' + "".join(rows) + "</table>"


def merge_section(merge: dict[str, Any]) -> str:
    """What the merge found: sources, duplicates, missing seeds."""
    items = [f"<li>sources: {escape(', '.join(merge.get('sources') or []) or 'one file')}</li>"]
    items.append(
        f"<li>{merge.get('records_used', 0)} runs used of {merge.get('records_read', 0)} records "
        f"read ({merge.get('identical_copies', 0)} identical copies)</li>"
    )
    for dup in merge.get("duplicates", []):
        superseded = ", ".join(dup["superseded_run_ids"])
        items.append(
            f"<li>duplicate {escape(dup['competition_id'])} seed {dup['seed']}: kept "
            f"{escape(dup['kept_run_id'])}, superseded {escape(superseded)}</li>"
        )
    for gap in merge.get("missing_seeds", []):
        seeds = ", ".join(str(s) for s in gap["missing_seeds"])
        items.append(
            f"<li>missing seeds {escape(seeds)} of {gap['expected_seeds']} for "
            f"{escape(gap['competition_id'])}</li>"
        )
    return "<ul>" + "".join(items) + "</ul>"


def agent_section(agent: str, section: dict[str, Any], entries: list[dict[str, Any]]) -> str:
    """Tables and charts of one agent."""
    splits = [(f"split {name}", stats) for name, stats in section["splits"].items()]
    groups = [*splits, ("overall", section["overall"])]
    complexity = [(f"{name} complexity", s) for name, s in section.get("complexity", {}).items()]
    modality = [(name, s) for name, s in section.get("modality", {}).items()]
    mine = [e for e in entries if e["agent"] == agent and e.get("kind") != "engineering"]
    if not mine and section.get("engineering"):  # tasks only: the engineering section shows them
        return f"<h2>Agent {escape(agent)}</h2>" + usage_html(
            section.get("llm_usage"), f"agent {agent}"
        )
    return "".join(
        [
            f"<h2>Agent {escape(agent)}</h2>",
            usage_html(section.get("llm_usage"), f"agent {agent}"),
            _original_rates_html(section.get("original_medal_rates")),
            f'<p class="meta">{escape(group_classes_text(section["overall"]) or "")}</p>',
            "<h3>Per split</h3>",
            groups_table(groups),
            medal_rate_chart(groups, f"Any-medal rate per split, agent {agent}"),
            '<p class="meta">Bars: valid rate (light) and any-medal rate (dark, ± SEM); '
            "diamond: mean leaderboard percentile.</p>",
            "<h3>Per complexity</h3>",
            groups_table(complexity),
            *(["<h3>Per modality</h3>", groups_table(modality)] if modality else []),
            "<h3>Score per competition</h3>",
            '<p class="meta">Ticks: median (purple, dashed), bronze, silver, gold thresholds; '
            "dots: one per seed, coloured by medal (hollow: no medal). Each lane has its own "
            "scale, in the metric's units, printed below it. Better is to the right.</p>",
            score_chart(mine, f"Score per competition, agent {agent}"),
            "<h3>Competitions</h3>",
            competitions_table(mine),
        ]
    )


def _original_rates_html(rates: dict[str, Any] | None) -> str:
    """Both any-medal rates, where the original MLE-bench's grading gives another one."""
    if not rates:
        return ""
    graded = ", ".join(rates["competitions"])
    return (
        f'<p class="meta"><b>Any medal {rates["any_medal"]:.1f} % here, '
        f"{rates['original_any_medal']:.1f} % as the original MLE-bench grades</b> "
        f"(over {rates['runs']} runs; graded otherwise there: {escape(graded)}; see "
        "docs/mlebench.md).</p>"
    )


def profile_section(summary: dict[str, Any], baseline: dict[str, Any] | None) -> str:
    """The category profile: a table and two grouped-bar charts (medal rate, percentile)."""
    profile = build_profile(summary, baseline)
    if not profile.categories:
        return ""
    head, *body = profile_rows(profile)
    rows = [_row((escape(c) for c in head), header=True)]
    rows += [_row([f"<b>{escape(row[0])}</b>", *(escape(c) for c in row[1:])]) for row in body]
    compared = "the session against the baseline" if baseline is not None else "the agents"
    return "".join(
        [
            '<h2 id="profile">Category profile</h2>',
            f'<p class="meta">Any-medal rate and mean leaderboard percentile per modality, '
            f"complexity and split, comparing {compared} (mean over seeds).</p>",
            '<table class="profile">' + "".join(rows) + "</table>",
            profile_chart(profile, "medal_rate", "Any-medal rate (%) per category"),
            profile_chart(profile, "percentile", "Mean leaderboard percentile per category"),
        ]
    )


def render_html(
    summary: dict[str, Any],
    title: str = "MLE-bench report",
    baseline: dict[str, Any] | None = None,
    history: Sequence[Mapping[str, Any]] = (),
    comparison: Sequence[str] = (),
) -> str:
    """The whole page for ``summary`` (``summary.json`` layout), with ``baseline`` beside it in
    the category profile and the engineering radar when given, the engineering trend from
    ``history`` (earlier summaries, oldest first), and the gate's lines (``comparison``) when it
    was compared with the baseline."""
    agents = summary.get("agents", {})
    sessions = ", ".join(summary.get("sessions", []))
    body = [
        f"<h1>{escape(title)}</h1>",
        f'<p class="meta">created {escape(str(summary.get("created_at", "")))} · agents '
        f"{escape(', '.join(agents))} · sessions {escape(sessions)}</p>",
        usage_html(summary.get("llm_usage"), "all runs"),
        manifest_html(summary.get("manifest")),  # the conditions of the numbers below
        comparison_html(comparison),
    ]
    body += [agent_section(a, s, summary.get("competitions", [])) for a, s in agents.items()]
    body.append(anytime_html(summary))
    body.append(profile_section(summary, baseline))
    body.append(engineering_html(summary, baseline, history))
    body.append(failure_html(summary))
    if summary.get("integrity"):
        body += ["<h2>Integrity</h2>", integrity_html(summary)]
    body += ["<h2>Merge</h2>", merge_section(summary.get("merge", {}))]
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        + "".join(body)
        + "</body></html>\n"
    )


def comparison_html(lines: Sequence[str]) -> str:
    """The gate against the baseline: its decision first, then its numbers as printed."""
    if not lines:
        return ""
    decision = lines[-1]
    css = "gate-passed" if decision.startswith("gate passed") else "gate-failed"
    return (
        f'<h2 id="comparison">Comparison with the baseline</h2><p class="{css}"><b>'
        f"{escape(decision)}</b></p><pre>{escape(chr(10).join(lines[:-1]))}</pre>"
    )


def write_html(
    out_dir: Path,
    summary: dict[str, Any],
    baseline: dict[str, Any] | None = None,
    history: Sequence[Mapping[str, Any]] = (),
    comparison: Sequence[str] = (),
) -> Path:
    """Write ``out_dir/index.html``, and each run's page in its folder where the folder is
    here (:mod:`pytest_mlebench.report.run_page`, linked as "steps"); returns its path."""
    out_dir.mkdir(parents=True, exist_ok=True)
    page = out_dir / "index.html"
    linked = with_run_links(write_run_pages(summary), out_dir)
    page.write_text(
        render_html(linked, baseline=baseline, history=history, comparison=comparison), "utf-8"
    )
    return page
