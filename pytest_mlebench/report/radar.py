"""Inline SVG for the engineering reports: a radar of scores and a trend strip. Pure strings.

The radar has one spoke per axis (the five dimensions, or the task categories), 0-100 from the
centre out, one polygon per series (an agent; the baseline's dashed) and a whisker of ± one SEM
along each spoke where the seeds give one. The trend strip is one line per dimension over earlier
summaries. Like :mod:`pytest_mlebench.report.charts`: no script, no external resource, a
``<title>`` on the chart and on every point, and text labels, so each reads without colour.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape

SERIES_COLOURS = ("#3d6fb6", "#c2410c", "#2f855a", "#7c3aed")
BASELINE_COLOUR = "#8a94a0"
RINGS = (25, 50, 75, 100)


@dataclass(frozen=True)
class RadarSeries:
    """One polygon: a value (0-100, ``None`` = not measured) and its SEM per axis."""

    name: str
    values: Mapping[str, float | None]
    sems: Mapping[str, float | None] = field(default_factory=dict)
    baseline: bool = False


def _point(cx: float, cy: float, radius: float, index: int, count: int) -> tuple[float, float]:
    angle = -math.pi / 2 + 2 * math.pi * index / count
    return cx + radius * math.cos(angle), cy + radius * math.sin(angle)


def _clip(value: float) -> float:
    return max(0.0, min(100.0, value))


def _text(x: float, y: float, body: str, anchor: str = "middle", size: int = 11) -> str:
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" text-anchor="{anchor}">'
        f"{escape(body)}</text>"
    )


def radar_chart(axes: Sequence[str], series: Sequence[RadarSeries], title: str) -> str:
    """A radar over ``axes`` (at least three) with one polygon per series.

    Raises:
        ValueError: With fewer than three axes (a radar of two spokes is a line; show a table).
    """
    if len(axes) < 3:
        raise ValueError("a radar needs at least three axes")
    radius, cx, cy = 120.0, 200.0, 165.0
    legend_top = 2 * cy - 10
    height = int(legend_top + 18 * len(series) + 10)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart radar" role="img" width="400" '
        f'height="{height}" viewBox="0 0 400 {height}">',
        f"<title>{escape(title)}</title>",
    ]
    count = len(axes)
    for ring in RINGS:
        ring_points = " ".join(
            "{:.1f},{:.1f}".format(*_point(cx, cy, radius * ring / 100, i, count))
            for i in range(count)
        )
        parts.append(f'<polygon points="{ring_points}" fill="none" stroke="#ddd"/>')
        x, y = _point(cx, cy, radius * ring / 100, 0, count)
        parts.append(_text(x + 4, y + 4, str(ring), "start", 9))
    for index, axis in enumerate(axes):
        x, y = _point(cx, cy, radius, index, count)
        parts.append(f'<line x1="{cx}" y1="{cy}" x2="{x:.1f}" y2="{y:.1f}" stroke="#ccc"/>')
        lx, ly = _point(cx, cy, radius + 18, index, count)
        anchor = "middle" if abs(lx - cx) < 10 else ("start" if lx > cx else "end")
        parts.append(_text(lx, ly + 4, axis, anchor))
    colours = iter(SERIES_COLOURS * 4)
    for position, one in enumerate(series):
        colour = BASELINE_COLOUR if one.baseline else next(colours)
        parts += _polygon(one, axes, colour, (cx, cy, radius))
        y = legend_top + 18 * position
        dash = ' stroke-dasharray="5,3"' if one.baseline else ""
        parts.append(
            f'<line x1="20" y1="{y:.1f}" x2="44" y2="{y:.1f}" stroke="{colour}" '
            f'stroke-width="2"{dash}/>'
        )
        parts.append(_text(50, y + 4, one.name, "start"))
    parts.append("</svg>")
    return "".join(parts)


def _polygon(
    one: RadarSeries, axes: Sequence[str], colour: str, frame: tuple[float, float, float]
) -> list[str]:
    cx, cy, radius = frame
    count = len(axes)
    values = [one.values.get(axis) for axis in axes]
    corners = [
        _point(cx, cy, radius * _clip(value or 0.0) / 100, i, count)
        for i, value in enumerate(values)
    ]
    dash = ' stroke-dasharray="5,3"' if one.baseline else ""
    fill = "none" if one.baseline else colour
    parts = [
        f'<polygon points="{" ".join(f"{x:.1f},{y:.1f}" for x, y in corners)}" '
        f'fill="{fill}" fill-opacity="0.12" stroke="{colour}" stroke-width="2"{dash}/>'
    ]
    for index, (axis, value) in enumerate(zip(axes, values, strict=True)):
        sem = one.sems.get(axis)
        if value is not None and sem:
            inner = _point(cx, cy, radius * _clip(value - sem) / 100, index, count)
            outer = _point(cx, cy, radius * _clip(value + sem) / 100, index, count)
            parts.append(
                f'<line x1="{inner[0]:.1f}" y1="{inner[1]:.1f}" x2="{outer[0]:.1f}" '
                f'y2="{outer[1]:.1f}" stroke="{colour}" stroke-width="1.5" class="sem"/>'
            )
        x, y = corners[index]
        shown = "not measured" if value is None else f"{value:.1f}"
        spread = f" ± {sem:.1f}" if value is not None and sem else ""
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3" fill="{colour}"><title>'
            f"{escape(f'{one.name} {axis}: {shown}{spread}')}</title></circle>"
        )
    return parts


def trend_strip(name: str, points: Sequence[tuple[str, float | None]]) -> str:
    """A small line over earlier summaries: ``points`` are (label, value 0-100), oldest first."""
    width, height, left, top, inner = 260, 56, 8, 10, 36
    known = [(i, v) for i, (_, v) in enumerate(points) if v is not None]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart trend" role="img" '
        f'width="{width + 130}" height="{height}" viewBox="0 0 {width + 130} {height}">',
        f"<title>{escape(f'{name} over {len(points)} summaries')}</title>",
        f'<rect x="{left}" y="{top}" width="{width}" height="{inner}" fill="none" stroke="#eee"/>',
    ]
    step = width / max(1, len(points) - 1)

    def where(index: int, value: float) -> tuple[float, float]:
        return left + step * index, top + inner * (1 - _clip(value) / 100)

    if known:
        line = " ".join("{:.1f},{:.1f}".format(*where(i, v)) for i, v in known)
        parts.append(f'<polyline points="{line}" fill="none" stroke="#3d6fb6" stroke-width="2"/>')
        for index, value in known:
            x, y = where(index, value)
            label = points[index][0]
            parts.append(
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="#3d6fb6"><title>'
                f"{escape(f'{label}: {value:.1f}')}</title></circle>"
            )
        last = known[-1][1]
        parts.append(_text(left + width + 8, top + inner / 2 + 4, f"{name} {last:.0f}", "start"))
    else:
        parts.append(_text(left + width / 2, top + inner / 2 + 4, "no earlier scores"))
    parts.append("</svg>")
    return "".join(parts)
