"""Category profiles: medal rate and mean percentile per modality, complexity and split. Pure.

A profile answers "where did the change help or hurt?": for each category (a modality, a
complexity level, a split), the any-medal rate and the mean leaderboard percentile of each
*series*. A series is one agent of a session, or the baseline when one is given (its single agent,
or each of its agents, named ``<agent> (baseline)``). The numbers are the summary's group
statistics (mean over seeds), so the profile agrees with every other report.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# (summary key of the agent section, how a category is named)
KINDS = (("modality", "modality"), ("complexity", "complexity"), ("splits", "split"))


@dataclass(frozen=True)
class ProfileCell:
    """One series in one category."""

    medal_rate: float | None
    percentile: float | None
    runs: int


@dataclass(frozen=True)
class Profile:
    """Categories (``modality tabular``, …) by series (``baseline``, ``dummy (baseline)``, …)."""

    series: tuple[str, ...]
    categories: tuple[str, ...]
    cells: dict[tuple[str, str], ProfileCell]

    def cell(self, category: str, series: str) -> ProfileCell | None:
        return self.cells.get((category, series))


def _cell(stats: dict[str, Any]) -> ProfileCell:
    percentile = stats.get("percentile") or {}
    return ProfileCell(stats["metrics"]["any_medal"]["mean"], percentile.get("mean"), stats["runs"])


def _series(summary: dict[str, Any], suffix: str) -> dict[str, dict[str, ProfileCell]]:
    found: dict[str, dict[str, ProfileCell]] = {}
    for agent, section in summary.get("agents", {}).items():
        cells = {}
        for key, label in KINDS:
            for name, stats in section.get(key, {}).items():
                cells[f"{label} {name}"] = _cell(stats)
        found[f"{agent}{suffix}"] = cells
    return found


def build_profile(summary: dict[str, Any], baseline: dict[str, Any] | None = None) -> Profile:
    """The profile of ``summary``'s agents, with the baseline's agents first when given."""
    series = _series(baseline, " (baseline)") if baseline is not None else {}
    series.update(_series(summary, ""))
    categories: list[str] = []
    for cells in series.values():
        categories += [name for name in cells if name not in categories]
    order = {label: index for index, (_, label) in enumerate(KINDS)}
    categories.sort(key=lambda name: (order[name.split(" ", 1)[0]], name))
    return Profile(
        tuple(series),
        tuple(categories),
        {(cat, name): cell for name, cells in series.items() for cat, cell in cells.items()},
    )


def _number(value: float | None, unit: str = "") -> str:
    return "-" if value is None else f"{value:.1f}{unit}"


def profile_rows(profile: Profile) -> list[list[str]]:
    """Header and rows: category, then per series ``medal %`` and ``percentile``."""
    head = ["category"]
    for name in profile.series:
        head += [f"{name} medal %", f"{name} percentile"]
    rows = [head]
    for category in profile.categories:
        row = [category]
        for name in profile.series:
            cell = profile.cell(category, name)
            row += [
                _number(cell.medal_rate if cell else None),
                _number(cell.percentile if cell else None),
            ]
        rows.append(row)
    return rows


def profile_text(profile: Profile) -> list[str]:
    """The profile as an aligned text table for the terminal."""
    rows = profile_rows(profile)
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["category profile (any-medal % and mean leaderboard percentile, mean over seeds):"]
    for row in rows:
        cells = [row[0].ljust(widths[0])]
        cells += [text.rjust(width) for text, width in zip(row[1:], widths[1:], strict=True)]
        lines.append("  " + "  ".join(cells).rstrip())
    return lines
