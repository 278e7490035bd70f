"""Inline SVG charts for the HTML report: medal rate per split, score per competition, profiles.

Plain strings, no scripts and no external resources, so the page stays one self-contained file.
Every chart carries a ``<title>`` and text labels so it reads without colour too.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape
from typing import Any

from pytest_mlebench.medals import MEDALS
from pytest_mlebench.report.category_profiles import Profile

# One colour per medal, in MEDALS order (best first); the last one is for no medal. Silver is a
# steel blue so that it stands apart from the median tick and from runs without a medal.
MEDAL_COLOURS: dict[str | None, str] = {
    **dict(zip(MEDALS, ("#d4a017", "#5b84b1", "#b0703c"), strict=True)),
    None: "#5b6770",
}
MEDIAN_COLOUR = "#7c3aed"  # the median tick of the score chart, dashed as well
NO_MEDAL_FILL = "#ffffff"  # a run without a medal is a hollow dot in the score chart
BAR_COLOUR = "#3d6fb6"
VALID_COLOUR = "#b9cbe6"
PERCENTILE_COLOUR = "#c2410c"
# One colour per series of a profile chart (baseline first), cycled beyond four.
SERIES_COLOURS = ("#8a94a0", "#3d6fb6", "#c2410c", "#2f855a")


def _svg_open(width: int, height: int, title: str) -> list[str]:
    return [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" role="img" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}">',
        f"<title>{escape(title)}</title>",
    ]


def _text(x: float, y: float, body: str, anchor: str = "start", size: int = 12) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}">'
        f"{escape(body)}</text>"
    )


def medal_rate_chart(groups: Sequence[tuple[str, dict[str, Any]]], title: str) -> str:
    """Horizontal bars: any-medal % (mean, with a ± SEM whisker) and valid % per group, and the
    mean leaderboard percentile as a diamond on the same 0-100 axis.

    Args:
        groups: ``(name, group statistics)`` pairs in display order.
        title: Accessible title of the chart.
    """
    left, width, row = 170, 460, 34
    height = 40 + row * len(groups)
    parts = _svg_open(left + width + 110, height, title)
    for tick in range(0, 101, 25):
        x = left + width * tick / 100
        parts.append(f'<line x1="{x:.1f}" y1="18" x2="{x:.1f}" y2="{height - 8}" stroke="#ddd"/>')
        parts.append(_text(x, 13, f"{tick} %", "middle", 10))
    for index, (name, stats) in enumerate(groups):
        y = 24 + index * row
        metrics = stats["metrics"]
        valid = metrics["valid_submission"]["mean"] or 0.0
        medal = metrics["any_medal"]["mean"] or 0.0
        sem = metrics["any_medal"]["sem"] or 0.0
        parts.append(_text(left - 8, y + 17, name, "end"))
        parts.append(
            f'<rect x="{left}" y="{y + 2}" width="{width * valid / 100:.1f}" height="24" '
            f'fill="{VALID_COLOUR}"><title>valid {valid:.1f} %</title></rect>'
        )
        parts.append(
            f'<rect x="{left}" y="{y + 7}" width="{width * medal / 100:.1f}" height="14" '
            f'fill="{BAR_COLOUR}"><title>any medal {medal:.1f} %</title></rect>'
        )
        if sem:
            low = left + width * max(0.0, medal - sem) / 100
            high = left + width * min(100.0, medal + sem) / 100
            parts.append(
                f'<line x1="{low:.1f}" y1="{y + 14}" x2="{high:.1f}" y2="{y + 14}" '
                'stroke="#111" stroke-width="1.5"/>'
            )
        percentile = (stats.get("percentile") or {}).get("mean")
        if percentile is not None:
            parts.append(_diamond(left + width * percentile / 100, y + 14, percentile))
        parts.append(_text(left + width + 8, y + 18, f"{medal:.1f} % medal", size=11))
    parts.append("</svg>")
    return "".join(parts)


def _diamond(x: float, y: float, percentile: float) -> str:
    points = f"{x:.1f},{y - 7} {x + 6:.1f},{y} {x:.1f},{y + 7} {x - 6:.1f},{y}"
    return (
        f'<polygon class="percentile" points="{points}" fill="{PERCENTILE_COLOUR}" '
        f'stroke="#111"><title>mean percentile {percentile:.1f}</title></polygon>'
    )


def profile_chart(profile: Profile, metric: str, title: str) -> str:
    """Grouped horizontal bars: per category, one bar per series (agents, or session and baseline).

    Args:
        profile: The category profile.
        metric: ``medal_rate`` or ``percentile`` (both 0-100).
        title: Accessible title of the chart.
    """
    series = profile.series
    left, width, bar, gap = 190, 420, 12, 14
    block = bar * len(series) + gap
    legend = 18 * (len(series) + 1)
    height = 30 + legend + block * len(profile.categories)
    parts = _svg_open(left + width + 70, height, title)
    parts.append(_text(left, 13, title, size=12))
    for index, name in enumerate(series):
        colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
        y = 24 + 18 * index
        parts.append(f'<rect x="{left}" y="{y}" width="12" height="12" fill="{colour}"/>')
        parts.append(_text(left + 18, y + 11, name, size=11))
    top = 14 + legend
    for tick in range(0, 101, 25):
        x = left + width * tick / 100
        parts.append(
            f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{height - 4}" stroke="#ddd"/>'
        )
        parts.append(_text(x, top - 2, str(tick), "middle", 10))
    for row, category in enumerate(profile.categories):
        y0 = top + 4 + row * block
        parts.append(_text(left - 8, y0 + bar * len(series) / 2 + 4, category, "end"))
        for index, name in enumerate(series):
            cell = profile.cell(category, name)
            value = getattr(cell, metric) if cell is not None else None
            y = y0 + index * bar
            colour = SERIES_COLOURS[index % len(SERIES_COLOURS)]
            shown = "no runs" if value is None else f"{value:.1f}"
            parts.append(
                f'<rect class="series" x="{left}" y="{y}" width="{width * (value or 0) / 100:.1f}" '
                f'height="{bar - 2}" fill="{colour}"><title>{escape(name)}, '
                f"{escape(category)}: {shown}</title></rect>"
            )
            parts.append(_text(left + width * (value or 0) / 100 + 4, y + bar - 3, shown, size=9))
    parts.append("</svg>")
    return "".join(parts)


def _span(entry: dict[str, Any]) -> tuple[float, float] | None:
    values = [v for v in (entry.get("thresholds") or {}).values() if _finite(v)]
    values += [run["score"] for run in entry["runs"] if _finite(run.get("score"))]
    if not values:
        return None
    low, high = min(values), max(values)
    pad = (high - low) * 0.05 or max(abs(high) * 0.05, 0.5)
    return low - pad, high + pad


def _finite(value: Any) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value)


def _legend(x: float, y: float) -> list[str]:
    """The score chart's key: which tick is which threshold, what a dot's fill means."""
    parts, at = [], x
    for name in (*MEDALS, "median"):
        colour = MEDIAN_COLOUR if name == "median" else MEDAL_COLOURS[name]
        dash = ' stroke-dasharray="3 2"' if name == "median" else ""
        parts.append(
            f'<line x1="{at:.1f}" y1="{y - 9}" x2="{at:.1f}" y2="{y + 1}" stroke="{colour}" '
            f'stroke-width="2"{dash}/>'
        )
        parts.append(_text(at + 4, y, name, size=10))
        at += 14 + 6 * len(name)
    parts.append(
        f'<circle cx="{at + 4:.1f}" cy="{y - 4}" r="4" fill="{NO_MEDAL_FILL}" stroke="#111"/>'
    )
    parts.append(_text(at + 11, y, "run, no medal (filled: its medal's colour)", size=10))
    return parts


def _scale(y: float, left: float, width: float, span: tuple[float, float], flip: bool) -> str:
    """The lane's numbers: its two ends and its middle, in the metric's own units."""
    low, high = (span[1], span[0]) if flip else span
    parts = []
    for share, anchor in ((0.0, "start"), (0.5, "middle"), (1.0, "end")):
        value = low + (high - low) * share
        x = left + width * share
        parts.append(f'<line x1="{x:.1f}" y1="{y + 9}" x2="{x:.1f}" y2="{y + 13}" stroke="#999"/>')
        parts.append(
            f'<text x="{x:.1f}" y="{y + 22:.1f}" font-size="9" fill="#555" '
            f'text-anchor="{anchor}">{value:.4g}</text>'
        )
    return "".join(parts)


def score_chart(entries: Sequence[dict[str, Any]], title: str) -> str:
    """One lane per competition: medal thresholds as ticks, each seed's score as a dot, and the
    lane's scale (its ends and middle) in the metric's units below it.

    Lanes are scaled per competition (metrics differ) and oriented so that better is to the
    right, whether the metric is higher- or lower-is-better.
    """
    left, width, row = 230, 440, 40
    height = 46 + row * len(entries)
    parts = [
        *_svg_open(left + width + 30, height, title),
        *_legend(left, 14),
        _text(left, 32, "worse", size=10),
        _text(left + width, 32, "better", "end", 10),
    ]
    for index, entry in enumerate(entries):
        y = 38 + index * row
        parts.append(_text(left - 8, y + 15, entry["competition_id"], "end"))
        span = _span(entry)
        parts.append(
            f'<line x1="{left}" y1="{y + 11}" x2="{left + width}" y2="{y + 11}" stroke="#ccc"/>'
        )
        if span is None:
            parts.append(_text(left + 6, y + 15, "no score", size=10))
            continue
        flip = bool(entry.get("is_lower_better"))

        def place(value: float, span: tuple[float, float] = span, flip: bool = flip) -> float:
            share = (value - span[0]) / (span[1] - span[0])
            return left + width * (1 - share if flip else share)

        parts.append(_scale(y + 11, left, width, span, flip))
        for key, value in (entry.get("thresholds") or {}).items():
            if _finite(value):
                name = key.replace("_threshold", "")
                colour = MEDIAN_COLOUR if name == "median" else MEDAL_COLOURS.get(name, "#777")
                dash = ' stroke-dasharray="3 2"' if name == "median" else ""
                parts.append(
                    f'<line x1="{place(value):.1f}" y1="{y + 2}" x2="{place(value):.1f}" '
                    f'y2="{y + 20}" stroke="{colour}" stroke-width="2"{dash}>'
                    f"<title>{escape(name)} {value:.5g}</title></line>"
                )
        for run in entry["runs"]:
            if _finite(run.get("score")):
                medal = run.get("medal")
                colour = MEDAL_COLOURS[medal] if medal else NO_MEDAL_FILL
                parts.append(
                    f'<circle cx="{place(run["score"]):.1f}" cy="{y + 11}" r="5" fill="{colour}" '
                    f'stroke="#111"><title>seed {run["seed"]}: {run["score"]:.5g} '
                    f"({escape(medal or 'no medal')})</title></circle>"
                )
    parts.append("</svg>")
    return "".join(parts)
