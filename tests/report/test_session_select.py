"""``mlebench report --session/--agent/--list-sessions``: one session out of a shared file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.records.run_record import append_record
from tests.report.builders import record


@pytest.fixture
def results(tmp_path: Path) -> Path:
    """Two sessions in one file: the main job (dummy, docker) and a user's own agent."""
    path = tmp_path / "results.jsonl"
    for item in (
        record("alpha", 0, 0.95, session_id="0a1b2c3d4e5f", sandbox="docker"),
        record("beta", 0, 0.4, session_id="0a1b2c3d4e5f", sandbox="docker"),
        record("alpha", 0, 0.5, session_id="9f8e7d6c5b4a", agent="mine"),
    ):
        append_record(path, item)
    return path


def test_list_sessions_shows_each_session_with_its_agent_and_backend(
    results: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", "--list-sessions", str(results)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("0a1b2c3d4e5f  2026-01-01 09:00:00  2 runs on 2 competitions")
    assert lines[0].endswith("agent dummy  sandbox docker")
    assert "1 run on 1 competition, 1 passed  agent mine  sandbox local" in lines[1]


def test_session_and_agent_pick_runs_out_of_the_file(results: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(["report", str(results), "--session", "0a1b", "--out", str(out)]) == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["sessions"] == ["0a1b2c3d4e5f"]
    assert summary["sandboxes"] == ["docker"]
    assert main(["report", str(results), "--agent", "mine", "--out", str(out)]) == 0
    assert list(json.loads((out / "summary.json").read_text())["agents"]) == ["mine"]


def test_an_unknown_session_or_agent_names_the_known_ones(
    results: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["report", str(results), "--session", "0a1b2c3d4e5e"]) != 0
    err = capsys.readouterr().err
    assert "no such session in the results; did you mean: 0a1b2c3d4e5f?" in err
    assert "--list-sessions" in err
    assert main(["report", str(results), "--agent", "mien"]) != 0
    assert "did you mean: mine?" in capsys.readouterr().err
