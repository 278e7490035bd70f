"""Shared runs of notebook-to-pipeline's verifier: the pipeline on a hidden export, headless.

The agent's workspace is a fresh copy here: the notebook and the reference results are removed
from it first, so a pipeline that executes the notebook's cells or copies the shipped results
cannot pass. The hidden export lies under a path with a space, far from ``data/``.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from mlebench_agent_run import agent_copy, agent_scratch, python_script, run_agent

RUN_TIMEOUT_S = 30
REMOVED = ("analysis.ipynb", "reference")


class Run:
    """One ``python3 pipeline.py`` into ``out_dir`` (extra arguments: a stage, a parameter)."""

    def __init__(self, work: Path, source: Path, out_dir: Path, *extra: str) -> None:
        command = python_script(
            "pipeline.py", "--input", str(source), "--out-dir", str(out_dir), *extra
        )
        started = time.monotonic()
        done = run_agent(
            command, cwd=work, writable=(work, out_dir.parent), timeout_s=RUN_TIMEOUT_S
        )
        self.returncode, self.log = done.returncode, done.output[-800:]
        if done.timed_out:
            self.returncode, self.log = -1, f"pipeline.py ran past {done.limit_s:.0f} s"
        self.wall_s = time.monotonic() - started
        self.out_dir = out_dir


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by relative path, with its bytes."""
    return {
        path.relative_to(folder).as_posix(): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="session")
def work() -> Path:
    path = Path(os.environ["WORK_DIR"])
    for name in REMOVED:
        target = path / name
        if target.is_dir():
            shutil.rmtree(target)
        elif target.exists() or target.is_symlink():
            target.unlink()
    return path


@pytest.fixture(scope="session")
def expected() -> dict[str, Any]:
    return json.loads((Path(os.environ["PRIVATE_DIR"]) / "expected.json").read_text())


@pytest.fixture(scope="session")
def scratch() -> Path:
    return agent_scratch("runs-")  # the pipeline runs as the agent's user: pytest's tmp is root's


@pytest.fixture(scope="session")
def hidden_input(scratch: Path) -> Path:
    target = scratch / "inbox 2025" / "orders-export.csv"
    target.parent.mkdir()
    shutil.copyfile(Path(os.environ["PRIVATE_DIR"]) / "hidden_orders.csv", target)
    return target


@pytest.fixture(scope="session")
def main_run(work: Path, hidden_input: Path, scratch: Path) -> Run:
    return Run(work, hidden_input, scratch / "main")


@pytest.fixture(scope="session")
def rerun(main_run: Run, work: Path, hidden_input: Path, scratch: Path) -> Run:
    """A second run into a copy of the main run's output folder (the main run's stays as it was)."""
    again = scratch / "again"
    if main_run.out_dir.is_dir():
        agent_copy(main_run.out_dir, again)  # links stay links: root never follows one
    return Run(work, hidden_input, again)


@pytest.fixture(scope="session")
def stages(work: Path) -> list[dict[str, Any]]:
    """The declared stages of ``stages.json`` (a list of objects)."""
    path = work / "stages.json"
    assert path.is_file(), "no stages.json in the workspace"
    declared = json.loads(path.read_text())
    assert isinstance(declared, dict) and isinstance(declared.get("stages"), list)
    assert all(isinstance(stage, dict) for stage in declared["stages"])
    return declared["stages"]  # type: ignore[no-any-return]
