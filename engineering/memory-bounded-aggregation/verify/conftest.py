"""memory-bounded-aggregation's verifier: run the agent's ``aggregate.py`` on streamed inputs.

The hidden input never becomes a path the agent's code could open: the verifier (root in its
container) reads ``/private/input.csv`` itself and writes it into a named pipe, which the
program — run as the unprivileged ``nobody`` — gets as INPUT. So the program reads the input
once, front to back, as the instruction promises, and cannot reach the expected output.

The program's peak memory is the larger of its own maximum RSS (``wait4``) and the sum of the
RSS of its whole process tree, sampled every 50 ms (a pool of workers counts together).
"""

from __future__ import annotations

import fcntl
import json
import os
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import psutil
import pytest
from mlebench_agent_run import hand_over, python_script, seconds_left, start_agent

RUN_TIMEOUT_S = 420  # one run: the oracle takes ~17 s alone, 5 times that on a loaded machine
MEMORY_BOUND_MB = 512
COPY_BYTES = 1 << 20
PIPE_SIZE = getattr(fcntl, "F_SETPIPE_SZ", 1031)
GROWTH_ALLOWANCE_MB = 64


@dataclass
class Run:
    """One run of ``aggregate.py``: exit status, output, counts, peak memory, wall time."""

    returncode: int | None
    output: str | None
    counts: dict[str, Any] | None
    peak_mb: float
    wall_s: float
    log: str

    @property
    def completed(self) -> bool:
        return self.returncode == 0 and self.output is not None

    def describe(self) -> str:
        status = "timed out" if self.returncode is None else f"exit {self.returncode}"
        return f"{status}, peak {self.peak_mb:.0f} MB, {self.wall_s:.1f} s; {self.log[-300:]}"


Part = tuple[Path, int, "int | None"]  # a file, the first byte, the byte to stop at (None: the end)


def _feed(pipe: Path, parts: list[Part], done: threading.Event) -> None:
    """Write each part of a file into ``pipe``; stop quietly when the reader goes away."""
    try:
        with open(pipe, "wb") as sink:
            try:  # a 1 MB pipe buffer: fewer switches between the feeder and the program
                fcntl.fcntl(sink.fileno(), PIPE_SIZE, COPY_BYTES)
            except OSError:
                pass
            for source, start, stop in parts:
                with open(source, "rb") as data:
                    data.seek(start)
                    left = None if stop is None else stop - start
                    while left is None or left > 0:
                        chunk = data.read(COPY_BYTES if left is None else min(COPY_BYTES, left))
                        if not chunk:
                            break
                        sink.write(chunk)
                        left = None if left is None else left - len(chunk)
    except OSError:
        pass  # the program stopped reading (a broken pipe): judged by the checks, not here
    finally:
        done.set()


def _tree_rss_mb(process: psutil.Process) -> float:
    try:
        members = [process, *process.children(recursive=True)]
    except psutil.Error:
        return 0.0
    total = 0
    for member in members:
        try:
            total += member.memory_info().rss
        except psutil.Error:
            pass
    return total / 1024**2


def run_aggregate(work: Path, parts: list[Part], scratch: Path) -> Run:
    """Stream ``parts`` through a pipe into ``python3 aggregate.py PIPE OUT`` and measure it."""
    scratch.mkdir(parents=True, exist_ok=True)
    pipe, output, log = scratch / "input.csv", scratch / "out.csv", scratch / "program.log"
    os.mkfifo(pipe)
    hand_over(scratch)
    done = threading.Event()
    feeder = threading.Thread(target=_feed, args=(pipe, parts, done), daemon=True)
    feeder.start()
    started = time.monotonic()
    child = start_agent(
        python_script("aggregate.py", str(pipe), str(output)), log=log, cwd=work, home=scratch
    )
    # measured from outside: the tree's RSS in /proc while it runs, the kernel's rusage at its exit
    watched, peak, status = psutil.Process(child.pid), 0.0, None
    limit = seconds_left(RUN_TIMEOUT_S)
    while time.monotonic() - started < limit:
        pid, raw, usage = os.wait4(child.pid, os.WNOHANG)
        if pid:
            status = os.waitstatus_to_exitcode(raw)
            peak = max(peak, usage.ru_maxrss / 1024)
            break
        peak = max(peak, _tree_rss_mb(watched))
        time.sleep(0.05)
    child.stop(grace_s=0)  # what is left of it (all of it, past its time)
    wall = time.monotonic() - started
    if not done.is_set():  # the program never opened its input, or stopped early
        try:
            os.close(os.open(pipe, os.O_RDONLY | os.O_NONBLOCK))
        except OSError:
            pass
        done.wait(5)
    text = log.read_text(errors="replace") if log.exists() else ""
    counts = None
    for line in reversed(text.strip().splitlines()):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            counts = value
            break
    produced = output.read_text(errors="replace") if output.is_file() else None
    return Run(status, produced, counts, peak, wall, text)


def normalise(text: str | None) -> list[str]:
    return [line.rstrip("\r") for line in (text or "").strip().splitlines()]


@pytest.fixture(scope="session")
def private() -> Path:
    return Path(os.environ["PRIVATE_DIR"])


@pytest.fixture(scope="session")
def work() -> Path:
    return Path(os.environ["WORK_DIR"])


@pytest.fixture(scope="session")
def meta(private: Path) -> dict[str, Any]:
    return json.loads((private / "meta.json").read_text())


@pytest.fixture(scope="session")
def scratch() -> Path:
    folder = Path(tempfile.mkdtemp(prefix="aggregate-runs-"))
    folder.chmod(0o755)
    return folder


@pytest.fixture(scope="session")
def main_run(work: Path, private: Path, scratch: Path) -> Run:
    return run_aggregate(work, [(private / "input.csv", 0, None)], scratch / "main")


@pytest.fixture(scope="session")
def prefix_run(work: Path, private: Path, scratch: Path, meta: dict[str, Any]) -> Run:
    """The hidden input's first four days (~11 % of it), header included."""
    parts = [(private / "input.csv", 0, int(meta["prefix_offset"]))]
    return run_aggregate(work, parts, scratch / "prefix")
