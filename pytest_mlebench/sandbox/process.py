"""Run a host process tree under a deadline, with capped output and resource accounting.

Used by the local backend. The process starts in its own session/process group; at the deadline
the group and every descendant found in ``/proc`` are killed with SIGKILL, so children that
double-fork or call ``setsid`` do not outlive the run. Its own session keeps it out of a signal
meant for the harness's process group, so the process also asks the kernel for SIGKILL when the
harness's thread that started it dies (``PR_SET_PDEATHSIG``): a ``kill -9`` of the harness ends
it too. That reaches the started process only; with the namespace wrapper it is ``unshare``,
whose death ends the agent's whole PID namespace. Without namespaces, children that the agent
detached from itself can outlive a harness killed with ``kill -9`` (``docs/sandbox.md``).
Output goes through a pipe to a reader thread that keeps at most ``max_log_bytes`` on disk (a
1 GB log cannot fill the host's disk).
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import resource
import signal
import subprocess
import threading
import time
from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.sandbox.interface import ExecResult

MAX_LOG_BYTES = 50 * 1024**2
TAIL_BYTES = 8 * 1024
POLL_SECONDS = 0.05
PR_SET_PDEATHSIG = 1


@dataclass
class _Capture:
    """Output kept by the reader thread."""

    written: int = 0
    dropped: int = 0
    tail: deque[bytes] | None = None


def run_process_tree(
    command: Sequence[str],
    *,
    cwd: Path,
    env: Mapping[str, str],
    timeout: float | None,
    log_path: Path,
    max_log_bytes: int = MAX_LOG_BYTES,
    pass_fds: Sequence[int] = (),
) -> ExecResult:
    """Run ``command`` and wait for it, killing its whole tree at ``timeout`` seconds;
    ``pass_fds`` stay open in it (every other descriptor of the harness is closed)."""
    started = time.monotonic()
    try:
        proc = subprocess.Popen(
            list(command),
            cwd=cwd,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=die_with_harness,
            pass_fds=tuple(pass_fds),
        )
    except OSError as exc:
        return ExecResult(
            exit_code=127, timed_out=False, wall_seconds=0.0, output_tail=f"cannot start: {exc}"
        )
    capture = _Capture(tail=deque())
    reader = threading.Thread(
        target=_pump, args=(proc, log_path, max_log_bytes, capture), daemon=True
    )
    reader.start()
    try:
        status, rusage, timed_out = _wait(proc.pid, started, timeout)
    except BaseException:  # Ctrl-C or a signal turned into an exception: leave nothing behind
        kill_tree(proc.pid)
        proc.wait()
        raise
    reader.join(timeout=5)
    wall = time.monotonic() - started
    return ExecResult(
        exit_code=_exit_code(status),
        timed_out=timed_out,
        wall_seconds=round(wall, 3),
        output_tail=_tail_text(capture),
        cpu_seconds=round(rusage.ru_utime + rusage.ru_stime, 3) if rusage else None,
        peak_memory_bytes=rusage.ru_maxrss * 1024 if rusage else None,
    )


def _wait(
    pid: int, started: float, timeout: float | None
) -> tuple[int, resource.struct_rusage | None, bool]:
    deadline = None if timeout is None else started + timeout
    while True:
        done, status, rusage = os.wait4(pid, os.WNOHANG)
        if done:
            kill_tree(pid)  # reap stragglers the agent left in the background
            return status, rusage, False
        if deadline is not None and time.monotonic() >= deadline:
            kill_tree(pid)
            _, status, rusage = os.wait4(pid, 0)
            return status, rusage, True
        time.sleep(POLL_SECONDS)


def _libc_prctl() -> Any:
    # Looked up once in the harness: a dlopen in a child forked from a threaded parent can hang.
    with contextlib.suppress(OSError, AttributeError):  # not Linux: no such call
        return ctypes.CDLL(None).prctl
    return None


_PRCTL = _libc_prctl()


def die_with_harness() -> None:
    """In the child, before exec: SIGKILL when the harness's thread that started it dies."""
    if _PRCTL is not None:
        _PRCTL(PR_SET_PDEATHSIG, signal.SIGKILL)


def kill_tree(pid: int) -> None:
    """SIGKILL the process group of ``pid`` and every descendant of ``pid``."""
    victims = descendants(pid)
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass
    for child in victims:
        try:
            os.kill(child, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


def descendants(pid: int) -> list[int]:
    """All live descendants of ``pid`` (Linux ``/proc``; empty elsewhere)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    stack = [pid]
    while stack:
        for child in children.get(stack.pop(), []):
            found.append(child)
            stack.append(child)
    return found


def _pump(proc: subprocess.Popen[bytes], log_path: Path, limit: int, capture: _Capture) -> None:
    assert proc.stdout is not None  # we asked Popen for a pipe
    tail = capture.tail if capture.tail is not None else deque()
    kept = 0
    log_path.parent.mkdir(parents=True, exist_ok=True)
    with log_path.open("ab") as log:
        while chunk := os.read(proc.stdout.fileno(), 1 << 16):
            room = max(0, limit - capture.written)
            if room:
                log.write(chunk[:room])
                log.flush()  # the log is live: `tail -f agent.log` follows the agent
                capture.written += min(room, len(chunk))
            capture.dropped += max(0, len(chunk) - room)
            tail.append(chunk)
            kept += len(chunk)
            while kept - len(tail[0]) >= TAIL_BYTES:
                kept -= len(tail.popleft())
        if capture.dropped:
            log.write(f"\n[mlebench: {capture.dropped} more bytes of output dropped]\n".encode())


def _tail_text(capture: _Capture) -> str:
    data = b"".join(capture.tail or ())[-TAIL_BYTES:]
    text = data.decode("utf-8", errors="replace")
    if capture.dropped:
        text += f"\n[mlebench: {capture.dropped} bytes of output were not kept in the log]"
    return text


def _exit_code(status: int) -> int:
    if os.WIFSIGNALED(status):
        return -os.WTERMSIG(status)
    return os.WEXITSTATUS(status)
