"""The example project of the plugin tests, and helpers to read the records a run wrote."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.plugin.conftest import ExampleProject, project

AGENTS = Path(__file__).with_name("agents")

__all__ = ["AGENTS", "ExampleProject", "flags_of", "project", "records_of"]


def records_of(root: Path) -> list[dict[str, Any]]:
    path = root / "reports" / "results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def flags_of(record: dict[str, Any]) -> list[dict[str, Any]]:
    return list((record.get("integrity") or {}).get("flags") or [])
