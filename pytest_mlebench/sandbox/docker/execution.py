"""One command in a running container under a harness-owned deadline, with its accounting.

The command runs as a Docker exec. A reader thread streams its output into a capped host log; the
caller's thread polls the exec and, when it ends or at the deadline, kills every process of the
agent user (:mod:`.killer`: a process tree that forked, double-forked or called ``setsid`` dies
with it, at any pids count). The container is restarted only when processes survive all of that,
and the command's exit code is kept when it had ended. CPU seconds, peak
memory and OOM kills come from the container's own cgroup files, read by a small probe before and
after, so they work on cgroup v1 and v2 and on remote engines alike.
"""

from __future__ import annotations

import logging
import threading
import time
from collections import deque
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from pytest_mlebench.sandbox.docker.engine import import_docker
from pytest_mlebench.sandbox.docker.killer import kill_agent_processes, signal_keeper
from pytest_mlebench.sandbox.interface import ExecResult
from pytest_mlebench.sandbox.process import MAX_LOG_BYTES, TAIL_BYTES

log = logging.getLogger(__name__)

POLL_SECONDS = 0.25
INSPECT_EVERY = 4  # polls between exec inspections while output still flows
SETTLE_SECONDS = 5.0

# Prints the container cgroup's CPU time, peak memory and OOM-kill count (cgroup v2, else v1).
PROBE_SCRIPT = r"""
c=/sys/fs/cgroup
if [ -f $c/cgroup.controllers ]; then
  echo "cpu_us=$(sed -n 's/^usage_usec //p' $c/cpu.stat 2>/dev/null)"
  echo "peak=$(cat $c/memory.peak 2>/dev/null)"
  echo "oom=$(sed -n 's/^oom_kill //p' $c/memory.events 2>/dev/null)"
else
  echo "cpu_ns=$(cat $c/cpuacct/cpuacct.usage $c/cpu,cpuacct/cpuacct.usage 2>/dev/null | head -n1)"
  echo "peak=$(cat $c/memory/memory.max_usage_in_bytes 2>/dev/null)"
  echo "oom=$(sed -n 's/^oom_kill //p' $c/memory/memory.oom_control 2>/dev/null)"
fi
"""


@dataclass(frozen=True)
class CgroupSample:
    """The container cgroup's counters at one moment; ``None`` where the kernel hides one."""

    cpu_ns: int | None = None
    peak_bytes: int | None = None
    oom_kills: int | None = None


class CappedLog:
    """Writes output to a host file, at most ``limit`` bytes; keeps the tail for the result."""

    def __init__(self, path: Path | None, limit: int = MAX_LOG_BYTES) -> None:
        self.path = path
        self.limit = limit
        self.written = 0
        self.dropped = 0
        self._tail: deque[bytes] = deque()
        self._tail_size = 0

    def pump(self, chunks: Iterable[bytes]) -> None:
        """Consume ``chunks`` until the stream ends or breaks."""
        handle = self._open()
        try:
            for chunk in chunks:
                self._write(handle, chunk)
        except Exception as exc:  # a broken stream must not kill the reader
            log.debug("output stream ended: %s", exc)
        finally:
            if handle is not None:
                if self.dropped:
                    handle.write(f"\n[mlebench: {self.dropped} more bytes dropped]\n".encode())
                handle.close()

    def _open(self) -> BinaryIO | None:
        if self.path is None:
            return None
        self.path.parent.mkdir(parents=True, exist_ok=True)
        return self.path.open("ab")

    def _write(self, handle: BinaryIO | None, chunk: bytes) -> None:
        kept = min(max(0, self.limit - self.written), len(chunk)) if handle is not None else 0
        if kept and handle is not None:
            handle.write(chunk[:kept])
            handle.flush()  # the log is live: `tail -f agent.log` follows the agent as it works
        self.written += kept
        self.dropped += len(chunk) - kept
        self._tail.append(chunk)
        self._tail_size += len(chunk)
        while self._tail_size - len(self._tail[0]) >= TAIL_BYTES:
            self._tail_size -= len(self._tail.popleft())

    def tail_text(self) -> str:
        text = b"".join(self._tail)[-TAIL_BYTES:].decode("utf-8", errors="replace")
        if self.dropped and self.path is not None:
            text += f"\n[mlebench: {self.dropped} bytes of output were not kept in the log]"
        return text


def sample_cgroup(container: Any) -> CgroupSample:
    """Read the container's cgroup counters (empty when the probe cannot run)."""
    try:
        code, output = container.exec_run(["sh", "-c", PROBE_SCRIPT], user="root")
    except import_docker().errors.APIError as exc:
        log.debug("cgroup probe failed: %s", exc)
        return CgroupSample()
    if code != 0:
        return CgroupSample()
    values = dict(
        line.split("=", 1) for line in output.decode(errors="replace").splitlines() if "=" in line
    )
    cpu_ns = _int(values.get("cpu_ns"))
    if cpu_ns is None and _int(values.get("cpu_us")) is not None:
        cpu_ns = int(values["cpu_us"]) * 1000
    return CgroupSample(cpu_ns, _int(values.get("peak")), _int(values.get("oom")))


def _int(text: str | None) -> int | None:
    text = (text or "").strip()
    return int(text) if text.isdigit() else None


def run_exec(
    container: Any,
    command: Sequence[str],
    *,
    user: str,
    env: Mapping[str, str],
    workdir: str,
    timeout: float | None,
    log_path: Path | None,
    account: bool = True,
    agent: bool = True,
) -> ExecResult:
    """Run ``command`` as ``user``; when it ends, or at ``timeout`` seconds, kill every process
    of the agent user (and, past the deadline, the command itself whoever runs it).

    ``account``: sample the container's cgroup before and after for the result's CPU time, peak
    memory and OOM kill (two probe execs); the harness's own commands leave it off, since they
    are not the agent's work.
    ``agent``: the command is the agent's, so whatever it left of the agent user's is killed
    when it ends. A harness command (``False``: root, when no agent command runs) starts none
    of the agent user's, so an exec that ended by itself is done; one past its deadline is
    killed as any other.
    """
    api = container.client.api
    before = sample_cgroup(container) if account else CgroupSample()
    started = time.monotonic()
    exec_id = api.exec_create(
        container.id, list(command), user=user, environment=dict(env), workdir=workdir
    )["Id"]
    stream = api.exec_start(exec_id, stream=True)
    output = CappedLog(log_path)
    reader = threading.Thread(target=output.pump, args=(stream,), daemon=True, name="exec-output")
    reader.start()
    try:
        timed_out = _wait(api, exec_id, reader, started, timeout)
        if agent or timed_out:
            exit_code, restarted = _finish(container, api, exec_id)
        else:  # a harness command that ended: nothing of the agent's is left to kill
            exit_code, restarted = _exit_code(api, exec_id), False
        reader.join(timeout=SETTLE_SECONDS)
    finally:
        stream.close()
    wall = time.monotonic() - started
    after = sample_cgroup(container) if account else CgroupSample()
    return _result(exit_code, timed_out, wall, output, before, after, restarted)


def _wait(
    api: Any, exec_id: str, reader: threading.Thread, started: float, timeout: float | None
) -> bool:
    """Block until the exec ends (False) or the deadline passes (True)."""
    deadline = None if timeout is None else started + timeout
    polls = 0
    while True:
        reader.join(timeout=POLL_SECONDS)
        polls += 1
        if (not reader.is_alive() or polls % INSPECT_EVERY == 0) and not _running(api, exec_id):
            return False
        if deadline is not None and time.monotonic() >= deadline:
            return True


def _running(api: Any, exec_id: str) -> bool:
    return bool(api.exec_inspect(exec_id).get("Running"))


def _finish(container: Any, api: Any, exec_id: str) -> tuple[int | None, bool]:
    """Kill what the command left running (all of it after a timeout): its exit code (``None``
    when it never ended) and whether the container had to be restarted."""
    clean = kill_agent_processes(container)
    ended = _ended(api, exec_id, SETTLE_SECONDS)
    if not ended:  # a command past its deadline that the agent user's killer does not reach
        signal_keeper(container)
        ended = _ended(api, exec_id, SETTLE_SECONDS)
    code = _exit_code(api, exec_id) if ended else None
    if clean and ended:
        return code, False
    log.warning("processes in %s survived SIGKILL; restarting the container", container.name)
    container.restart(timeout=0)
    return code, True


def _ended(api: Any, exec_id: str, within: float) -> bool:
    """Whether the exec has ended, waiting up to ``within`` seconds for it."""
    deadline = time.monotonic() + within
    while _running(api, exec_id):
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL_SECONDS)
    return True


def _exit_code(api: Any, exec_id: str) -> int | None:
    code = api.exec_inspect(exec_id).get("ExitCode")
    return int(code) if code is not None else None


def _result(
    exit_code: int | None,
    timed_out: bool,
    wall: float,
    output: CappedLog,
    before: CgroupSample,
    after: CgroupSample,
    restarted: bool = False,
) -> ExecResult:
    cpu = None
    # A restarted container starts its counters again: no delta can be told then.
    if before.cpu_ns is not None and after.cpu_ns is not None and after.cpu_ns >= before.cpu_ns:
        cpu = round((after.cpu_ns - before.cpu_ns) / 1e9, 3)
    oom = (after.oom_kills or 0) > (before.oom_kills or 0)
    return ExecResult(
        exit_code=exit_code,
        timed_out=timed_out,
        wall_seconds=round(wall, 3),
        output_tail=output.tail_text(),
        cpu_seconds=cpu,
        peak_memory_bytes=after.peak_bytes,
        oom_killed=oom,
        restarted=restarted,
    )
