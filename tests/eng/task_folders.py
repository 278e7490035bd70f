"""Tiny engineering task folders written into tmp_path: the input of the loader and scorer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

VERIFY_TEST = """
import pytest


@pytest.mark.check("F1")
def test_f1(work_dir):
    assert (work_dir / "done.txt").is_file()


@pytest.mark.check("R1")
def test_r1(work_dir):
    assert (work_dir / "done.txt").read_text() == "ok"
"""


CHEATS = {  # the loader wants 2 to 6 known hacks
    "write-nothing": "true\n",
    "say-not-ok": "printf no > done.txt\n",
}


def base_config(task_id: str = "tiny-task") -> dict[str, Any]:
    return {
        "id": task_id,
        "name": "A tiny task",
        "kind": "engineering",
        "category": "code",
        "complexity": "low",
        "image": "base",
        "time_limit": 60,
        "requirements": {"R1": "done.txt exists", "R2": "done.txt says ok"},
        "checks": [
            {
                "id": "F1",
                "covers": ["R1"],
                "dimension": "functional",
                "weight": 1,
                "gate": True,
                "why": "the job",
                "fix_hint": "write done.txt",
            },
            {
                "id": "R1",
                "covers": ["R2"],
                "dimension": "robustness",
                "weight": 1,
                "why": "content",
                "fix_hint": "write ok",
            },
        ],
        "verify": {"time_limit": 30},
    }


def write_task(
    root: Path,
    config: dict[str, Any] | None = None,
    verify_test: str = VERIFY_TEST,
    task_id: str = "tiny-task",
) -> Path:
    """A task folder ``root/<id>`` with ``config`` (default :func:`base_config`)."""
    config = base_config(task_id) if config is None else config
    folder = root / str(config.get("id", task_id))
    for name in ("workspace", "verify", "solution", "cheats"):
        (folder / name).mkdir(parents=True, exist_ok=True)
    (folder / "config.yaml").write_text(yaml.safe_dump(config, sort_keys=False), "utf-8")
    (folder / "instruction.md").write_text("## Context\n\n## What to do\n\n## How it is checked\n")
    (folder / "prepare.py").write_text(
        "def prepare(workspace, private, seed):\n    return {}\n", "utf-8"
    )
    (folder / "verify" / "test_tiny.py").write_text(verify_test, "utf-8")
    (folder / "solution" / "solve.sh").write_text("printf ok > done.txt\n", "utf-8")
    for cheat, script in CHEATS.items():
        (folder / "cheats" / f"{cheat}.sh").write_text(script, "utf-8")
    return folder
