"""Shared fixtures of training-pipeline-fix's verifier: train once per problem, import predict.

The agent's code (``train.py``, ``predict.py``) runs as another user, out of the verifier's
process (``mlebench_agent_code``): it reads copies of the data, never ``/private``.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest
from mlebench_agent_code import agent_module
from mlebench_agent_run import agent_copy, agent_scratch, python_script, run_agent

TRAIN_TIMEOUT_S = 60


class Run:
    """One ``python3 train.py`` run of the agent's script on a data folder, by the verifier."""

    def __init__(self, work: Path, data_dir: Path, out_dir: Path, seed: int) -> None:
        started = time.monotonic()
        command = python_script(
            "train.py", "--data-dir", str(data_dir), "--out-dir", str(out_dir), "--seed", str(seed)
        )
        done = run_agent(
            command, cwd=work, writable=(work, data_dir, out_dir.parent), timeout_s=TRAIN_TIMEOUT_S
        )
        self.returncode, self.log = done.returncode, done.output[-800:]
        if done.timed_out:
            self.returncode, self.log = -1, f"train.py ran past {done.limit_s:.0f} s"
        self.wall_s = time.monotonic() - started
        self.out_dir = out_dir


@pytest.fixture(scope="session")
def work() -> Path:
    return Path(os.environ["WORK_DIR"])


@pytest.fixture(scope="session")
def scratch() -> Path:
    """Where the runs write (not under pytest's basetemp: the verifier's root alone)."""
    return agent_scratch("runs-")


@pytest.fixture(scope="session")
def main_run(work: Path, scratch: Path) -> Run:
    data = scratch / "data"
    agent_copy(work / "data", data)  # links stay links: root never follows one
    return Run(work, data, scratch / "main", int(os.environ.get("MLEBENCH_SEED", "0")))


@pytest.fixture(scope="session")
def alt_run(work: Path, scratch: Path) -> Run:
    # the other problem's training rows only, not its hidden rows; in a folder of root's, not in
    # the scratch folder the main run could write (root never writes where the agent can plant)
    data = Path(tempfile.mkdtemp(prefix="alt-data-"))
    data.chmod(0o755)
    shutil.copy2(Path(os.environ["PRIVATE_DIR"]) / "alt" / "train.npz", data / "train.npz")
    return Run(work, data, scratch / "alt", 12345)


@pytest.fixture(scope="session")
def predict_module(work: Path, scratch: Path):  # type: ignore[no-untyped-def]
    """The agent's ``predict`` module, imported in a child process as another user."""
    return agent_module("predict", work, writable=(scratch,))
