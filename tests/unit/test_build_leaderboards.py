"""``tools/build_leaderboards.py`` on the package's definition API: help, errors, a toy build."""

from __future__ import annotations

import csv
import importlib
import subprocess
import sys
import types
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from pytest_mlebench.definition import load_competition
from tests.factories import write_competition

ROOT = Path(__file__).resolve().parents[2]
TOOL = ROOT / "tools" / "build_leaderboards.py"


def _run_tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(TOOL), *args], capture_output=True, text=True, timeout=120
    )


def test_help_runs() -> None:
    done = _run_tool("--help")
    assert done.returncode == 0, done.stderr
    assert "--competition" in done.stdout


def test_an_unknown_competition_is_one_line_not_a_traceback() -> None:
    done = _run_tool("--competition", "no-such-competition")
    assert done.returncode == 1
    assert "no-such-competition/config.yaml: missing" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.fixture
def tool(monkeypatch: pytest.MonkeyPatch) -> Any:
    # The tool pins BLAS threads on import; keep that out of the rest of the test session.
    for variable in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        monkeypatch.setenv(variable, "1")
    monkeypatch.setattr(sys, "path", list(sys.path))
    return importlib.import_module("tools.build_leaderboards")


@dataclass(frozen=True)
class Entry:
    name: str
    family: str
    submission: pd.DataFrame


def _toy_population(public: Path) -> list[Entry]:
    """Constant guesses and the threshold rule: three distinct accuracies."""
    test = pd.read_csv(public / "test.csv")
    guesses = {
        "all-zero": test["x"] * 0,
        "all-one": test["x"] * 0 + 1,
        "threshold": (test["x"] > 0.5).astype(int),
    }
    return [
        Entry(name, "toy", pd.DataFrame({"id": test["id"], "label": labels}))
        for name, labels in guesses.items()
    ]


def test_build_writes_a_loadable_leaderboard_and_provenance(
    tool: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = write_competition(tmp_path, "toy")
    (folder / "leaderboard.csv").unlink()  # a new competition has none yet
    population = types.ModuleType("leaderboard_population.toy")
    population.entries = _toy_population  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "leaderboard_population.toy", population)

    scored = tool.build("toy", competitions=tmp_path)

    with (folder / "leaderboard.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert rows[0] == {"rank": "1", "score": "1", "family": "toy", "entry": "threshold"}
    assert {row["entry"] for row in rows} == {"threshold", "all-zero", "all-one"}
    assert [row["rank"] for row in rows] == ["1", "2", "3"]
    assert [s.name for s in scored] == [row["entry"] for row in rows]
    competition = load_competition(folder)
    assert competition.leaderboard_scores == tuple(float(row["score"]) for row in rows)
    assert competition.thresholds.gold == 1.0
    readme = (folder / "README.md").read_text()
    assert "<!-- leaderboard:start -->" in readme
    assert "--competition toy" in readme
    assert "(3 entries" in readme
