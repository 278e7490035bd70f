"""Runs of the agent's suite: pytest sessions with the verifier's probe, in fresh processes.

Each process gets a random ``PYTHONHASHSEED`` and runs a few sessions (``flaky_runner.py``), each
in its own random test order (all drawn here, at verify time). The suite runs as an unprivileged
user on one of two copies of the workspace (two processes at a time), so /private and the
verifier's files stay out of its reach.
"""

from __future__ import annotations

import json
import os
import queue
import random
import shutil
import statistics
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from mlebench_agent_run import hand_over, python_script, run_agent

RUNS = 30
SESSIONS = 3  # runs per process: 10 hash seeds, 30 orders
MUTANTS = ("bootstrap", "ties", "register", "transform")
RUN_TIMEOUT_S = 30
HERE = Path(__file__).resolve().parent
RNG = random.Random()  # fresh draws per verifier run: nothing to learn from earlier runs


@dataclass
class Run:
    """One run of a suite: the seeds it got and what the probe saw."""

    hash_seed: int
    order_seed: int
    mutant: str | None
    exit: int
    report: dict[str, Any] | None
    output: str
    problems: list[str] = field(default_factory=list)

    @property
    def outcomes(self) -> dict[str, str]:
        return (self.report or {}).get("outcomes", {})

    @property
    def duration(self) -> float:
        return float((self.report or {}).get("duration", 0.0))

    def label(self) -> str:
        return f"PYTHONHASHSEED={self.hash_seed} order seed {self.order_seed}"


@dataclass
class Lane:
    """A private copy of a workspace, the verifier's runner and probe (root's, read-only to the
    suite) and a folder for the probe's reports; one run at a time uses it."""

    work: Path
    scratch: Path
    reports: Path


def make_lane(source: Path) -> Lane:
    root = Path(tempfile.mkdtemp(prefix="lane-"))
    root.chmod(0o755)
    work, scratch, reports = root / "work", root / "scratch", root / "reports"
    shutil.copytree(source, work, symlinks=True)
    scratch.mkdir(mode=0o755)
    reports.mkdir()
    for helper in ("flaky_probe.py", "flaky_runner.py"):
        shutil.copy2(HERE / helper, scratch / helper)
        (scratch / helper).chmod(0o644)
    hand_over(work, reports)
    return Lane(work, scratch, reports)


Job = tuple[int, list[int], str | None]  # (hash seed, order seeds, mutant)


def run_process(lane: Lane, job: Job) -> list[Run]:
    """One process of the suite under ``job``'s hash seed: a session per order seed."""
    hash_seed, order_seeds, mutant = job
    reports = [lane.reports / f"report-{hash_seed}-{seed}.json" for seed in order_seeds]
    env = {
        "PYTHONHASHSEED": str(hash_seed),
        "PYTHONDONTWRITEBYTECODE": "1",
        "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1",
    }
    if mutant:
        env["FLAKY_MUTANT"] = mutant
    plan = json.dumps([[seed, str(path)] for seed, path in zip(order_seeds, reports, strict=True)])
    # the runner's own folder (root's) first on sys.path: the probe comes from there, not PYTHONPATH
    command = python_script(lane.scratch / "flaky_runner.py", plan, hash_seeded=True)
    done = run_agent(command, cwd=lane.work, env=env, timeout_s=RUN_TIMEOUT_S * len(order_seeds))
    output = done.stdout[-1500:] + done.stderr[-500:]
    if done.timed_out:
        output = f"timed out after {done.limit_s:.0f} s"
    runs = []
    for seed, report in zip(order_seeds, reports, strict=True):
        data = json.loads(report.read_text("utf-8")) if report.is_file() else None
        report.unlink(missing_ok=True)
        exit_status = int(data["exit"]) if data else -1
        runs.append(Run(hash_seed, seed, mutant, exit_status, data, output))
    return runs


def run_many(lanes: list[Lane], jobs: list[Job]) -> list[Run]:
    """``jobs`` over the lanes: each process takes a free lane and gives it back, so a copy
    never serves two processes at once."""
    free: queue.Queue[Lane] = queue.Queue()
    for lane in lanes:
        free.put(lane)

    def one(job: Job) -> list[Run]:
        lane = free.get()
        try:
            return run_process(lane, job)
        finally:
            free.put(lane)

    with ThreadPoolExecutor(max_workers=len(lanes)) as pool:
        return [run for runs in pool.map(one, jobs) for run in runs]


def jobs(processes: int, sessions: int, mutants: tuple[str | None, ...] = (None,)) -> list[Job]:
    """``processes`` random hash seeds with ``sessions`` random orders each (per mutant)."""
    return [
        (RNG.randrange(1, 2**32 - 1), [RNG.randrange(1, 2**31) for _ in range(sessions)], mutant)
        for mutant in mutants
        for _ in range(processes)
    ]


@pytest.fixture(scope="session")
def lanes() -> list[Lane]:
    work = Path(os.environ["WORK_DIR"])
    return [make_lane(work), make_lane(work)]


@pytest.fixture(scope="session")
def runs(lanes: list[Lane]) -> list[Run]:
    """The agent's suite, 30 times, each with its own hash seed and order."""
    return run_many(lanes, jobs(RUNS // SESSIONS, SESSIONS))


@pytest.fixture(scope="session")
def baseline() -> dict[str, Any]:
    """The starting suite, three runs: its test ids (what must still run) and its time."""
    pristine = [make_lane(Path(os.environ["PRISTINE_DIR"])) for _ in range(2)]
    done = run_many(pristine, jobs(1, 3))
    ids = sorted({test for run in done for test in (run.report or {}).get("order", [])})
    assert ids, f"the starting suite did not run: {done[0].output}"
    return {"ids": ids, "duration": statistics.median(run.duration for run in done)}


@pytest.fixture(scope="session")
def mutant_runs(lanes: list[Lane]) -> list[Run]:
    return run_many(lanes, jobs(1, 1, MUTANTS))


@pytest.fixture(scope="session")
def fixtures() -> dict[str, Any]:
    return json.loads((Path(os.environ["PRIVATE_DIR"]) / "fixtures.json").read_text("utf-8"))
