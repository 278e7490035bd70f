"""The process audit: the sandbox's processes, sampled from outside the agent's reach.

About once a second a background thread of the harness lists the command lines running in the
sandbox and keeps a compact log: one entry per distinct command line with the first and last
time it was seen (seconds after the sandbox started) and how many samples saw it.

- Docker: the engine's ``top`` of the container (``docker top``): the host's view of the
  container's processes, which nothing inside the container can edit.
- local: the host's ``/proc``: every process whose environment carries this run's
  ``MLEBENCH_RUN_NONCE``, and all their descendants (a child that clears its environment is
  still a descendant).

Processes shorter than the interval can be missed; the audit is evidence, not a guarantee.
Commands of the harness itself (the container's idle process, the namespace wrapper, resource
probes) are left out.
"""

from __future__ import annotations

import os
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

INTERVAL_SECONDS = 1.0
MAX_COMMAND_CHARS = 500
MAX_DISTINCT = 2000
HARNESS_PREFIXES = ("sleep infinity", "/sbin/docker-init", "docker-init", "unshare ", "setpriv ")
HARNESS_MARKERS = ("/sys/fs/cgroup", "kill -KILL -1", "/run/mlebench-lease")
# The Docker container's lease keeper sleeps as ``sleep <N>s`` (:mod:`..sandbox.docker.expiry`).
LEASE_SLEEP = re.compile(r"sleep [0-9]+s")

Sampler = Callable[[], list[str]]


@dataclass
class ProcessEntry:
    """One distinct command line: when it was first and last seen, in how many samples."""

    command: str
    first_seen: float
    last_seen: float
    samples: int = 1


class ProcessLog:
    """Distinct command lines with first/last seen times (seconds after ``started``)."""

    def __init__(self, started: float) -> None:
        self.started = started
        self.entries: dict[str, ProcessEntry] = {}
        self.samples = 0
        self.dropped = 0

    def add(self, commands: list[str], at: float) -> None:
        self.samples += 1
        offset = round(at - self.started, 1)
        for command in commands:
            entry = self.entries.get(command)
            if entry is not None:
                entry.last_seen, entry.samples = offset, entry.samples + 1
            elif len(self.entries) < MAX_DISTINCT:
                self.entries[command] = ProcessEntry(command, offset, offset)
            else:
                self.dropped += 1

    def to_list(self) -> list[dict[str, Any]]:
        return [
            {
                "command": e.command,
                "first_seen": e.first_seen,
                "last_seen": e.last_seen,
                "samples": e.samples,
            }
            for e in sorted(self.entries.values(), key=lambda e: (e.first_seen, e.command))
        ]


def is_harness_command(command: str) -> bool:
    """Whether ``command`` is the harness's own (idle process, wrapper, probe), not the agent's."""
    return (
        command.startswith(HARNESS_PREFIXES)
        or any(m in command for m in HARNESS_MARKERS)
        or LEASE_SLEEP.fullmatch(command) is not None
    )


def clean(commands: list[str]) -> list[str]:
    """Trimmed, de-duplicated agent command lines (harness commands left out)."""
    kept = {c.strip()[:MAX_COMMAND_CHARS] for c in commands if c.strip()}
    return sorted(c for c in kept if not is_harness_command(c))


# -- samplers -----------------------------------------------------------------------------------


def docker_sampler(container: Any) -> Sampler:
    """Command lines of the container's processes, as the engine reports them."""

    def sample() -> list[str]:
        top = container.top()
        titles = [t.upper() for t in top.get("Titles") or []]
        column = titles.index("CMD") if "CMD" in titles else titles.index("COMMAND")
        return [str(row[column]) for row in top.get("Processes") or []]

    return sample


def local_sampler(nonce: str, proc: Path = Path("/proc")) -> Sampler:
    """Command lines of the processes carrying ``nonce`` in their environment, and descendants."""
    marker = f"MLEBENCH_RUN_NONCE={nonce}".encode()

    def sample() -> list[str]:
        table = _process_table(proc)
        roots = {pid for pid in table if marker in _read(proc / str(pid) / "environ").split(b"\0")}
        members = _with_descendants(roots, table)
        return [table[pid][1] for pid in sorted(members) if table[pid][1]]

    return sample


def _process_table(proc: Path) -> dict[int, tuple[int, str]]:
    """pid → (parent pid, command line) of every process visible in ``proc``."""
    table = {}
    for entry in proc.glob("[0-9]*"):
        stat = _read(entry / "stat").decode(errors="replace")
        if not stat:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        command = _read(entry / "cmdline").replace(b"\0", b" ").decode(errors="replace").strip()
        table[int(entry.name)] = (parent, command)
    return table


def _with_descendants(roots: set[int], table: dict[int, tuple[int, str]]) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, (parent, _) in table.items():
        children.setdefault(parent, []).append(pid)
    found, stack = set(roots), list(roots)
    while stack:
        for child in children.get(stack.pop(), []):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:  # gone, or another user's process
        return b""


# -- the audit thread ---------------------------------------------------------------------------


class ProcessAudit:
    """Samples ``sampler`` every ``interval`` seconds in a daemon thread until :meth:`stop`."""

    def __init__(self, sampler: Sampler, started: float, interval: float = INTERVAL_SECONDS):
        self.sampler = sampler
        self.interval = interval
        self.log = ProcessLog(started)
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="mlebench-audit", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=10)
        self._sample_once()  # the last moment before the sandbox goes

    def _loop(self) -> None:
        while not self._stop.is_set():
            self._sample_once()
            self._stop.wait(self.interval)

    def _sample_once(self) -> None:
        try:
            self.log.add(clean(self.sampler()), time.time())
        except Exception as exc:  # the engine went away, a race with the container's end
            if len(self.errors) < 5:
                self.errors.append(f"{type(exc).__name__}: {exc}")

    def evidence(self) -> dict[str, Any]:
        return {
            "interval_seconds": self.interval,
            "samples": self.log.samples,
            "distinct_commands": len(self.log.entries),
            "dropped": self.log.dropped,
            "errors": self.errors,
            "processes": self.log.to_list(),
        }


def local_process_visible(nonce: str) -> bool:
    """Whether this host lets the harness read process environments (Linux ``/proc``)."""
    return os.path.isdir("/proc/self") and bool(nonce)
