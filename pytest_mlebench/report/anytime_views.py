"""Anytime grading in the reports: score over time per competition against its medal lines, and
the medal rate at each mark per agent (inline SVG for the HTML page, a table for Markdown).

Built from ``summary.json``'s layout only (each run's ``anytime`` entry, each agent's
``medal_rate_at_marks``), so ``mlebench report`` draws the same from a saved summary. The SVG
has no script and no external resource: the page's policy allows none.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

from pytest_mlebench.medals import MEDALS
from pytest_mlebench.report.charts import BAR_COLOUR, MEDAL_COLOURS, NO_MEDAL_FILL
from pytest_mlebench.report.markdown_table import table

LEFT, WIDTH, TOP, HEIGHT = 60, 420, 20, 160
SEED_COLOURS = ("#3d6fb6", "#c2410c", "#2f855a", "#7c3aed", "#8a94a0")


def _text(x: float, y: float, body: str, anchor: str = "start", size: int = 10) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}">'
        f"{escape(body)}</text>"
    )


def _clock(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def _points(entry: Mapping[str, Any]) -> list[tuple[int, list[tuple[float, float, str | None]]]]:
    """``(seed, [(seconds, score, medal)])`` of each run with a curve; invalid copies left out."""
    runs = []
    for run in entry.get("runs", []):
        curve = run.get("anytime") or {}
        valid = [
            (float(t), float(s), m)
            for t, s, m in curve.get("points", [])
            if isinstance(t, (int, float)) and isinstance(s, (int, float))
        ]
        if curve:
            runs.append((int(run.get("seed", 0)), valid))
    return runs


def score_over_time_chart(entry: Mapping[str, Any]) -> str:
    """One competition's runs as score over agent time (one line per seed, dots coloured by
    medal) against its medal thresholds (dashed horizontal lines); empty when no run has a
    curve."""
    runs = _points(entry)
    if not runs:
        return ""
    thresholds = entry.get("thresholds") or {}
    lines = {m: thresholds.get(f"{m}_threshold") for m in MEDALS}
    scores = [s for _, points in runs for _, s, _ in points]
    scores += [v for v in lines.values() if isinstance(v, (int, float))]
    low, high = (min(scores), max(scores)) if scores else (0.0, 1.0)
    if high == low:
        low, high = low - 0.5, high + 0.5
    end = max((t for _, points in runs for t, _, _ in points), default=1.0) or 1.0

    def x(seconds: float) -> float:
        return LEFT + WIDTH * seconds / end

    def y(score: float) -> float:
        return TOP + HEIGHT * (high - score) / (high - low)

    name = str(entry.get("competition_id", ""))
    title = f"Score over agent time, {name} ({entry.get('agent', '')})"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart anytime" role="img" '
        f'width="{LEFT + WIDTH + 80}" height="{TOP + HEIGHT + 30}" '
        f'viewBox="0 0 {LEFT + WIDTH + 80} {TOP + HEIGHT + 30}">',
        f"<title>{escape(title)}</title>",
        _text(LEFT - 6, y(high) + 4, f"{high:.4g}", "end"),
        _text(LEFT - 6, y(low) + 4, f"{low:.4g}", "end"),
        _text(LEFT, TOP + HEIGHT + 16, "0:00"),
        _text(LEFT + WIDTH, TOP + HEIGHT + 16, _clock(end), "end"),
    ]
    for medal, value in lines.items():
        if isinstance(value, (int, float)):
            parts.append(
                f'<line class="medal-line" x1="{LEFT}" x2="{LEFT + WIDTH}" y1="{y(value):.1f}" '
                f'y2="{y(value):.1f}" stroke="{MEDAL_COLOURS[medal]}" stroke-dasharray="4 3">'
                f"<title>{medal} {value:.5g}</title></line>"
            )
            parts.append(_text(LEFT + WIDTH + 4, y(value) + 3, f"{medal} {value:.4g}"))
    for index, (seed, points) in enumerate(runs):
        colour = SEED_COLOURS[index % len(SEED_COLOURS)]
        path = " ".join(f"{x(t):.1f},{y(s):.1f}" for t, s, _ in points)
        parts.append(
            f'<polyline class="curve" fill="none" stroke="{colour}" points="{path}">'
            f"<title>seed {seed}</title></polyline>"
        )
        for t, s, won in points:
            fill = MEDAL_COLOURS.get(won, NO_MEDAL_FILL)
            parts.append(
                f'<circle class="copy" cx="{x(t):.1f}" cy="{y(s):.1f}" r="3.5" fill="{fill}" '
                f'stroke="{colour}"><title>seed {seed} at {_clock(t)}: {s:.5g} '
                f"{won or 'no medal'}</title></circle>"
            )
    parts.append("</svg>")
    return "".join(parts)


def mark_rate_chart(agent: str, rates: Mapping[str, Any]) -> str:
    """Bars: the agent's medal rate at each mark (0-100 %)."""
    marks = rates.get("marks", [])
    row, left, width = 26, 80, 360
    height, full = 24 + row * len(marks), left + width + 70
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart marks" role="img" '
        f'width="{full}" height="{height}" viewBox="0 0 {full} {height}">',
        f"<title>{escape(f'Medal rate by mark, agent {agent}')}</title>",
    ]
    for index, mark in enumerate(marks):
        top = 8 + index * row
        rate = float(mark.get("medal_rate") or 0.0)
        parts.append(_text(left - 6, top + 14, f"at {mark['label']}", "end", 11))
        parts.append(
            f'<rect x="{left}" y="{top}" width="{width * rate / 100:.1f}" height="18" '
            f'fill="{BAR_COLOUR}"><title>at {escape(str(mark["label"]))}: medal rate '
            f"{rate:.1f} %</title></rect>"
        )
        parts.append(_text(left + width * rate / 100 + 4, top + 14, f"{rate:.1f} %", size=11))
    parts.append("</svg>")
    return "".join(parts)


def anytime_html(summary: Mapping[str, Any]) -> str:
    """The page's "Score over time" section; empty when no run kept submission copies."""
    agents = summary.get("agents", {})
    rated = [
        (a, s["medal_rate_at_marks"]) for a, s in agents.items() if s.get("medal_rate_at_marks")
    ]
    charts = [score_over_time_chart(e) for e in summary.get("competitions", [])]
    charts = [chart for chart in charts if chart]
    if not rated and not charts:
        return ""
    body = ['<h2 id="anytime">Score over time</h2>']
    for agent, rates in rated:
        body += [
            f"<h3>Medal rate by mark, agent {escape(agent)}</h3>",
            mark_rate_chart(agent, rates),
            f'<p class="meta">{rates["with_curve"]} of {rates["runs"]} runs kept submission '
            "copies; a run without them holds no medal at any mark.</p>",
        ]
    body += [
        "<h3>Score per competition over agent time</h3>",
        '<p class="meta">One line per seed, one dot per graded submission copy (coloured by '
        "medal, hollow: none); dashed lines: the gold, silver and bronze thresholds.</p>",
        *charts,
    ]
    return "".join(body)


def anytime_markdown(summary: Mapping[str, Any]) -> list[str]:
    """The "Medal rate by mark" table of ``summary.md``; none when no run had a curve."""
    rows = [["agent", "mark", "medal rate", "runs with a curve"]]
    for agent, section in summary.get("agents", {}).items():
        rates = section.get("medal_rate_at_marks")
        for mark in rates["marks"] if rates else ():
            rows.append(
                [
                    agent,
                    str(mark["label"]),
                    f"{mark['medal_rate']:.1f} %",
                    f"{rates['with_curve']} of {rates['runs']}",
                ]
            )
    return ["## Medal rate by mark", "", *table(rows), ""] if len(rows) > 1 else []
