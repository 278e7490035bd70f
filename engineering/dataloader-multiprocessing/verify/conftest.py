"""Shared runs of dataloader-multiprocessing's verifier: train.py three times, each probed.

Every run uses a copy of the pristine data and its own output folder, with the verifier's probe
(``probe/sitecustomize.py``) on ``PYTHONPATH``: it forces the DataLoader's start method and
records the worker processes and the samples each pass yielded. The three runs are started
together once per session.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

RUN_TIMEOUT_S = 60
EPOCHS = 2
PROBE_SOURCE = Path(__file__).resolve().parent / "probe"


class Run:
    """One ``python3 train.py`` of the agent's code with ``CPU_COUNT`` workers under ``method``,
    started at once and waited for by ``finish`` (the three runs overlap: most of their time is
    spent importing torch, in the main process and in every spawned worker)."""

    def __init__(self, work: Path, scratch: Path, name: str, cpu_count: int, method: str) -> None:
        self.name, self.cpu_count, self.method = name, cpu_count, method
        folder = scratch / name
        self.out_dir, self.probe_dir = folder / "out", folder / "probe"
        self.probe_dir.mkdir(parents=True)
        env = dict(
            os.environ,
            CPU_COUNT=str(cpu_count),
            DL_PROBE_DIR=str(self.probe_dir),
            DL_PROBE_START_METHOD=method,
            PYTHONPATH=str(scratch / "probe"),
        )
        command = [sys.executable, "train.py", "--data-dir", str(scratch / "data"),
                   "--out-dir", str(self.out_dir), "--seed", str(_seed()),
                   "--epochs", str(EPOCHS), "--start-method", method]  # fmt: skip
        self.log_path = folder / "train.log"
        self.started = time.monotonic()
        with self.log_path.open("wb") as log:  # a file, not a pipe: no run blocks on a full pipe
            self.process = subprocess.Popen(
                command, cwd=work, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )  # fmt: skip
        self.returncode, self.log, self.wall_s = -1, "", 0.0

    def finish(self) -> Run:
        """Wait for the run (``RUN_TIMEOUT_S`` from its start); a hang is killed and fails."""
        left = max(1.0, RUN_TIMEOUT_S - (time.monotonic() - self.started))
        try:
            self.returncode = self.process.wait(timeout=left)
            self.log = self.log_path.read_text(errors="replace")[-800:]
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.log = f"train.py ran past {RUN_TIMEOUT_S} s (a deadlock?)"
        self.wall_s = time.monotonic() - self.started
        return self

    @property
    def passes(self) -> list[dict[str, Any]]:
        """Every DataLoader pass the probe saw, from every process that iterated one."""
        found: list[dict[str, Any]] = []
        for path in sorted(self.probe_dir.glob("probe-*.json")):
            found.extend(json.loads(path.read_text())["passes"])
        return found

    def summary(self) -> str:
        workers = sorted({p["workers"] for p in self.passes})
        kinds = sorted({k for p in self.passes for k in p["kinds"]})
        return (
            f"{self.name}: CPU_COUNT={self.cpu_count} {self.method}, exit {self.returncode}"
            f" in {self.wall_s:.1f} s, workers {workers} {kinds}"
        )


def _seed() -> int:
    return int(os.environ.get("MLEBENCH_SEED", "0"))


@pytest.fixture(scope="session")
def facts() -> dict[str, Any]:
    return json.loads((Path(os.environ["PRIVATE_DIR"]) / "facts.json").read_text())


@pytest.fixture(scope="session")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("runs")
    shutil.copytree(Path(os.environ["PRISTINE_DIR"]) / "data", folder / "data")
    shutil.copytree(PROBE_SOURCE, folder / "probe")
    return folder


@pytest.fixture(scope="session")
def runs(scratch: Path, facts: dict[str, Any]) -> dict[str, Run]:
    work = Path(os.environ["WORK_DIR"])
    started = [
        Run(work, scratch, "spawn", facts["spawn_cpu_count"], "spawn"),
        Run(work, scratch, "forkserver", facts["forkserver_cpu_count"], "forkserver"),
        Run(work, scratch, "serial", 0, "spawn"),
    ]
    return {run.name: run.finish() for run in started}


@pytest.fixture(scope="session")
def spawn_run(runs: dict[str, Run]) -> Run:
    return runs["spawn"]


@pytest.fixture(scope="session")
def forkserver_run(runs: dict[str, Run]) -> Run:
    return runs["forkserver"]


@pytest.fixture(scope="session")
def serial_run(runs: dict[str, Run]) -> Run:
    return runs["serial"]
