"""Earlier summaries for the trend of the engineering scores (``mlebench report --history DIR``).

CI keeps each session's ``summary.json`` as an artifact; pointing ``--history`` at a folder of
them gives the trend strips of the HTML page and the "last 5" column of ``summary.md``. Every
``*.json`` file under the folder that is a pytest-mlebench summary counts, oldest first by its
``created_at``; other files are passed over and named, never a reason to fail the report.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.report.engineering_stats import DIMENSIONS
from pytest_mlebench.report.summary_json import is_summary


@dataclass(frozen=True)
class History:
    """Summaries found, oldest first, and the files passed over (with the reason)."""

    summaries: tuple[Mapping[str, Any], ...]
    passed_over: tuple[str, ...] = ()


def load_history(folder: Path) -> History:
    """Every summary under ``folder``, oldest first.

    Raises:
        ConfigError: When ``folder`` is not a folder.
    """
    if not folder.is_dir():
        raise ConfigError(
            f"--history {folder}: not a folder (give the folder of earlier summary.json files)"
        )
    found: list[Mapping[str, Any]] = []
    skipped: list[str] = []
    for path in sorted(folder.rglob("*.json")):
        try:
            data = json.loads(path.read_text("utf-8"))
        except (OSError, ValueError) as exc:
            skipped.append(f"{path}: {type(exc).__name__}")
            continue
        if is_summary(data):
            found.append(data)
        else:
            skipped.append(f"{path}: not a summary.json")
    found.sort(key=lambda summary: str(summary.get("created_at", "")))
    return History(tuple(found), tuple(skipped))


def _engineering(summary: Mapping[str, Any], agent: str) -> Mapping[str, Any] | None:
    section = (summary.get("agents") or {}).get(agent) or {}
    engineering = section.get("engineering")
    return engineering if isinstance(engineering, Mapping) else None


def dimension_trend(
    summaries: Sequence[Mapping[str, Any]], agent: str
) -> dict[str, list[tuple[str, float | None]]]:
    """Per dimension (and ``score``), (created_at, mean 0-100) of each summary with that agent's
    engineering section, oldest first."""
    trend: dict[str, list[tuple[str, float | None]]] = {"score": []}
    trend.update({name: [] for name in DIMENSIONS})
    for summary in summaries:
        section = _engineering(summary, agent)
        if section is None:
            continue
        label = str(summary.get("created_at", ""))[:16]
        trend["score"].append((label, (section.get("score") or {}).get("mean")))
        for name in DIMENSIONS:
            stats = (section.get("dimensions") or {}).get(name) or {}
            trend[name].append((label, stats.get("mean")))
    return trend
