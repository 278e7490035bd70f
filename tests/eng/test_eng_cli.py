"""``mlebench list --kind engineering`` and ``mlebench agents`` show the engineering side."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mlebench.cli import main

TASKS = Path(__file__).parent / "tasks"
SHIPPED = Path(__file__).resolve().parents[2] / "engineering"


def test_list_shows_the_tasks(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--kind", "engineering", "--engineering-dir", str(TASKS)]) == 0
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if line.startswith("echo-service "))
    assert row.split() == ["echo-service", "serving", "low", "base", "4", "2", "60", "s"]
    shipped = sum(1 for folder in SHIPPED.iterdir() if (folder / "config.yaml").is_file())
    assert f"{shipped + 1} engineering tasks" in out  # the shipped ones and the fixture task
    assert "split core:" in out


def test_list_json_names_checks_and_gates(capsys: pytest.CaptureFixture[str]) -> None:
    main(["list", "--kind", "engineering", "--engineering-dir", str(TASKS), "--json"])
    (row,) = [r for r in json.loads(capsys.readouterr().out) if r["id"] == "echo-service"]
    assert row["checks"] == ["F1", "F2", "R1", "X1"] and row["gates"] == ["F1", "F2"]


def test_agents_lists_the_task_agents(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["agents"]) == 0
    out = capsys.readouterr().out
    assert "oracle " in out and "noop " in out and "cheat:NAME" in out
