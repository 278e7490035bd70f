"""Shared runs of dataloader-multiprocessing's verifier: train.py three times, each watched.

Every run uses a copy of the pristine data and its own output folder and runs through the
verifier's door (as the agent's user, a fresh environment). What the verifier counts is measured
from **outside** the run, so nothing the agent's code does in its own interpreter can rewrite it:
a thread reads ``/proc`` every 100 ms for the processes of the run's session and classifies the
DataLoader's workers by how the kernel shows them (a spawned worker's command line runs
``multiprocessing.spawn``; a forkserver's workers are forks of the forkserver; a forked worker is
a copy of the main process), and the exit status is the kernel's. The three runs are started
together once per session.
"""

from __future__ import annotations

import json
import os
import shutil
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from mlebench_agent_run import AgentProcess, agent_scratch, python_script, start_agent

RUN_TIMEOUT_S = 60
EPOCHS = 2
POLL_S = 0.1  # a worker lives for seconds; three watchers must not cost the runs a core
STEADY = 10  # polls (1 s) a worker must be seen in: a fork on its way to exec() is none
SPAWN = "from multiprocessing.spawn import spawn_main"
FORKSERVER = "from multiprocessing.forkserver import main"


def worker_kind(pid: int, table: dict[int, tuple[int, str]], main_pid: int) -> str | None:
    """The multiprocessing class that ``pid`` of the run's process ``table`` (pid: (ppid,
    command line)) is a worker of, or ``None`` (the main process, a forkserver, a tracker)."""
    ppid, command = table[pid]
    if pid == main_pid or "multiprocessing.resource_tracker" in command:
        return None
    if SPAWN in command:
        return "SpawnProcess"
    if FORKSERVER in command:
        return "ForkServerProcess" if FORKSERVER in table.get(ppid, (0, ""))[1] else None
    if ppid == main_pid and command == table[main_pid][1]:
        return "ForkProcess"
    return None


def session_processes(session: int) -> dict[int, tuple[int, str]]:
    """``{pid: (ppid, command line)}`` of every live process of ``session``, from ``/proc``."""
    table: dict[int, tuple[int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rpartition(")")[2].split()
            if int(fields[3]) != session:
                continue
            command = (
                (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode("utf-8", "replace")
            )
            table[int(entry.name)] = (int(fields[1]), command)
        except (OSError, ValueError, IndexError):  # it ended meanwhile
            continue
    return table


class Watch(threading.Thread):
    """Polls the run's session until it ends: the most workers alive at once, and their kinds
    (a worker seen in at least ``STEADY`` polls: a short-lived fork, such as one on its way to
    run another program, is none). Root in the verifier's container has no ``CAP_SYS_PTRACE``:
    another user's open files and I/O counters are not readable, its command line and parent
    are."""

    def __init__(self, process: AgentProcess) -> None:
        super().__init__(daemon=True)
        self.process, self.workers, self.kinds = process, 0, set()
        self.sightings: Counter[int] = Counter()
        self.start()

    def run(self) -> None:
        main = self.process.pid
        while self.process.process.poll() is None:
            table = session_processes(main)
            if main in table:
                kinds = {pid: worker_kind(pid, table, main) for pid in table}
                self.sightings.update(pid for pid, kind in kinds.items() if kind)
                alive = [
                    kind for pid, kind in kinds.items() if kind and self.sightings[pid] >= STEADY
                ]
                self.workers = max(self.workers, len(alive))
                self.kinds.update(alive)
            time.sleep(POLL_S)


class Run:
    """One ``python3 train.py`` of the agent's code with ``CPU_COUNT`` workers under ``method``,
    started at once and waited for by ``finish`` (the three runs overlap: most of their time is
    spent importing torch, in the main process and in every spawned worker)."""

    def __init__(self, work: Path, scratch: Path, name: str, cpu_count: int, method: str) -> None:
        self.name, self.cpu_count, self.method = name, cpu_count, method
        folder = scratch / name
        folder.mkdir()
        self.out_dir = folder / "out"
        command = python_script(
            "train.py", "--data-dir", str(scratch / "data"), "--out-dir", str(self.out_dir),
            "--seed", str(_seed()), "--epochs", str(EPOCHS), "--start-method", method,
        )  # fmt: skip
        self.log_path = folder / "train.log"
        self.started = time.monotonic()
        self.process = start_agent(
            command, log=self.log_path, cwd=work, writable=(folder,),
            env={"CPU_COUNT": str(cpu_count)},
        )  # fmt: skip
        self.watch = Watch(self.process)
        self.returncode, self.log, self.wall_s = -1, "", 0.0

    def finish(self) -> Run:
        """Wait for the run (``RUN_TIMEOUT_S`` from its start); a hang is killed and fails."""
        left = max(1.0, RUN_TIMEOUT_S - (time.monotonic() - self.started))
        if self.process.wait(left):
            self.log = f"train.py ran past {RUN_TIMEOUT_S} s (a deadlock?)"
        else:
            self.returncode = int(self.process.returncode or 0)
            self.log = self.process.log_tail(800)
        self.watch.join(timeout=5)
        self.wall_s = time.monotonic() - self.started
        return self

    @property
    def workers(self) -> int:
        """The most DataLoader workers alive at once, seen from ``/proc``."""
        return self.watch.workers

    @property
    def kinds(self) -> list[str]:
        return sorted(self.watch.kinds)

    def summary(self) -> str:
        return (
            f"{self.name}: CPU_COUNT={self.cpu_count} {self.method}, exit {self.returncode}"
            f" in {self.wall_s:.1f} s, workers {self.workers} {self.kinds}"
        )


def _seed() -> int:
    return int(os.environ.get("MLEBENCH_SEED", "0"))


@pytest.fixture(scope="session")
def facts() -> dict[str, Any]:
    return json.loads((Path(os.environ["PRIVATE_DIR"]) / "facts.json").read_text())


@pytest.fixture(scope="session")
def scratch() -> Path:
    folder = agent_scratch("runs-")  # the runs write here as the agent's user
    shutil.copytree(Path(os.environ["PRISTINE_DIR"]) / "data", folder / "data")
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
