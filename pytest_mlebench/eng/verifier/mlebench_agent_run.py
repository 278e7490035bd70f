"""The verifier's one door for every program derived from the agent's work.

A verifier runs the agent's code (a training script, ``reproduce.sh``, a service, the agent's
visible tests, ``pip install -r`` of the agent's requirements, a build): each such program starts
through :func:`run_agent` (to its end) or :func:`start_agent` (a service), and through nothing
else — the task lint refuses a ``verify/`` file that starts a process any other way. What the door
guarantees, by construction rather than by each task's care:

- **whom**: in the verifier's container (where the verifier is root) the program runs as the
  unprivileged user ``nobody``, after the folders it may write were handed to that user. It cannot
  write the results, signal or trace the verifier, or read what only root may open.
- **what it can reach**: before the first program starts, the hidden folders (``/verify``,
  ``$PRIVATE_DIR``) must be root-only and the results folder (``$VERIFY_OUT``) is made root-only;
  a hidden folder that is open to other users refuses the run (a harness fault, never the agent's).
- **its environment**: a fresh one — ``PATH``, ``HOME``, ``LANG`` and the task contract's
  ``WORK_DIR``/``MLEBENCH_SEED``/``TASK_ID``, plus what the verifier names; nothing of the
  verifier's own (``PYTHONPATH``, the hidden folders' variables). ``PYTHON*`` (but a few values the
  verifier chooses, such as ``PYTHONHASHSEED``), ``LD_*`` and shell start-up variables are refused.
- **its interpreter**: :func:`python_tool` runs a tool of the verifier's image as
  ``python3 -I -m TOOL`` (no ``PYTHON*``, no user site, no current folder on ``sys.path``: a
  workspace folder named like the tool cannot shadow it); :func:`python_script` runs one of the
  agent's scripts without ``PYTHON*`` or a user site.
- **where**: in a fresh folder outside the workspace unless the caller names the workspace (the
  agent's own program, such as ``bash start.sh``, runs there).
- **for how long**: every call has a limit, never past 90 % of the verifier's time
  (``VERIFY_TIME_LIMIT``, counted from the verifier's start), so a slow or hanging program is a
  failed check and the verifier still writes its results. At its limit, and when it ended, the
  program's whole process group is killed, and so is every other process of ``nobody`` that no
  live call owns (a daemon that left its session cannot squat a port of a later check).

Outside a verifier container (the local backend, which is no sandbox) the program runs as the
harness's user: only the environment, the interpreter flags and the limits hold there.

Standard library only: the verifier's image loads it from ``$PYTHONPATH`` beside the plugin.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from mlebench_agent_commands import python_code, python_script, python_tool, suite_command
from mlebench_agent_seal import (
    AGENT_UID,
    UnsafeVerifier,
    in_verifier_container,
    privileged,
    seal_hidden,
)

__all__ = [
    "AgentProcess", "Finished", "UnsafeVerifier", "agent_copy", "agent_scratch", "hand_over",
    "in_verifier_container", "python_code", "python_script", "python_tool", "run_agent",
    "seconds_left", "start_agent", "suite_command", "without_refused",
]  # fmt: skip

DEFAULT_TIMEOUT_S = 120.0  # a call's limit when the caller names none
VERIFIER_SHARE = 0.9  # no call runs past this share of the verifier's own time limit
SAFE_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
CONTRACT_ENV = ("WORK_DIR", "MLEBENCH_SEED", "TASK_ID")  # what the agent's sandbox also had
CHOSEN_PYTHON_ENV = frozenset(
    {"PYTHONHASHSEED", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PYTHONIOENCODING"}
)
REFUSED_ENV = frozenset({"BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4", "GCONV_PATH"})
REFUSED_ENV_PREFIXES = ("PYTHON", "LD_", "PERL5", "NODE_OPTIONS", "RUBYOPT")
HIDDEN_ENV = ("PRIVATE_DIR", "PRISTINE_DIR", "VERIFY_OUT")
OUTPUT_TAIL_BYTES = 4 * 1024**2  # the most of a program's output the verifier reads back
_LOADED = time.monotonic()  # about the verifier's start: its plugin imports this module
_LIVE_SESSIONS: set[int] = set()  # session ids of programs started here that still run
_STARTING = threading.Lock()  # a start and the reaping of strays never interleave


@dataclass(frozen=True)
class Finished:
    """A program that ran to its end (or to its limit, then ``timed_out`` and killed)."""

    argv: tuple[str, ...]
    returncode: int
    stdout: str
    stderr: str
    wall_s: float
    timed_out: bool
    limit_s: float

    @property
    def output(self) -> str:
        """Its output and errors, with the time-out named, for a check's failure message."""
        note = f"\n(killed after {self.limit_s:.0f} s)" if self.timed_out else ""
        return f"{self.stdout}{self.stderr}{note}"

    @property
    def ok(self) -> bool:
        return self.returncode == 0 and not self.timed_out


def seconds_left(timeout_s: float = DEFAULT_TIMEOUT_S) -> float:
    """``timeout_s``, cut to what is left of 90 % of the verifier's time (0 when none is)."""
    limit = float(os.environ.get("VERIFY_TIME_LIMIT") or 0)
    if limit <= 0:
        return timeout_s
    return max(0.0, min(timeout_s, _LOADED + VERIFIER_SHARE * limit - time.monotonic()))


def agent_scratch(prefix: str) -> Path:
    """A fresh folder under the system's temporary folder that the agent's code may write (pytest's
    own temporary folders are the verifier's root alone): owned by ``nobody`` when privileged."""
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    hand_over(folder)
    return folder


def agent_copy(source: Path, target: Path, *, ignore: Iterable[str] = ()) -> Path:
    """A copy of ``source`` (the agent's workspace, or a part) at ``target``, handed to
    ``nobody``. Links are copied as links, never followed: the verifier (root) copying a planted
    ``leak -> /private/answers.csv`` would otherwise put the answers where the agent's program
    reads."""
    patterns = shutil.ignore_patterns(*ignore) if ignore else None
    shutil.copytree(source, target, symlinks=True, ignore=patterns)
    hand_over(target)
    return target


def hand_over(*paths: Path) -> None:
    """Give ``paths`` (recursively) to ``nobody`` when privileged; links are changed, never
    followed, so a link the agent planted cannot hand over a file of the verifier's."""
    if not privileged():
        return
    for path in paths:
        for entry in _walk(path):
            os.chown(entry, AGENT_UID, AGENT_UID, follow_symlinks=False)


def fresh_env(env: Mapping[str, str] | None = None, *, home: Path | None = None) -> dict[str, str]:
    """The program's whole environment: the door's base plus ``env``; :class:`UnsafeVerifier`
    names a variable that would change how an interpreter or shell starts."""
    base = {"PATH": SAFE_PATH, "LANG": "C.UTF-8", "HOME": str(home or agent_scratch("home-"))}
    base.update({key: os.environ[key] for key in CONTRACT_ENV if key in os.environ})
    base["PYTEST_DISABLE_PLUGIN_AUTOLOAD"] = "1"  # only the plugins a program names
    for key, value in (env or {}).items():
        if _refused(key):
            raise UnsafeVerifier(
                f"{key} is not passed to the agent's programs: it changes how an interpreter or a"
                " shell starts (use python_tool/python_script, or one of "
                f"{sorted(CHOSEN_PYTHON_ENV)})"
            )
        base[key] = value
    return base


def without_refused(env: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """``env`` (the agent's own values, such as a manifest's ``env:``) without what the door
    refuses, and the names left out (for the check's evidence)."""
    kept = {key: value for key, value in env.items() if not _refused(key)}
    return kept, sorted(set(env) - set(kept))


def _refused(key: str) -> bool:
    if key in CHOSEN_PYTHON_ENV:
        return False
    return key in REFUSED_ENV or key in HIDDEN_ENV or key.startswith(REFUSED_ENV_PREFIXES)


def run_agent(
    argv: Sequence[str],
    *,
    cwd: Path | None = None,
    writable: Iterable[Path] = (),
    env: Mapping[str, str] | None = None,
    timeout_s: float = DEFAULT_TIMEOUT_S,
    stdin: str | bytes | None = None,
    home: Path | None = None,
) -> Finished:
    """Run ``argv`` through the door to its end or its limit (``timeout_s``, cut to the
    verifier's); its output comes back as text (the last 4 MiB of each stream)."""
    limit = seconds_left(timeout_s)
    started = time.monotonic()
    if limit <= 0:
        return Finished(tuple(argv), -signal.SIGKILL, "", "no verifier time left", 0.0, True, 0.0)
    folder = Path(tempfile.mkdtemp(prefix="agent-run-"))  # root's alone: the program's output
    out, err = folder / "stdout", folder / "stderr"
    with out.open("wb") as sink_out, err.open("wb") as sink_err:
        process = _popen(argv, cwd, writable, env, home, sink_out, sink_err, stdin, ())
        if stdin is not None and process.stdin is not None:
            _feed(process, stdin)
        timed_out = _wait(process, limit)
    result = Finished(
        tuple(argv), process.returncode, _tail(out), _tail(err),
        time.monotonic() - started, timed_out, limit,
    )  # fmt: skip
    out.unlink()
    err.unlink()
    folder.rmdir()
    return result


def start_agent(
    argv: Sequence[str],
    *,
    log: Path,
    cwd: Path | None = None,
    writable: Iterable[Path] = (),
    env: Mapping[str, str] | None = None,
    home: Path | None = None,
    pass_fds: Sequence[int] = (),
) -> AgentProcess:
    """Start ``argv`` through the door and leave it running (a service, a proxied module); its
    output goes to ``log``. Stop it with :meth:`AgentProcess.stop`."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("wb") as sink:
        process = _popen(argv, cwd, writable, env, home, sink, subprocess.STDOUT, None, pass_fds)
    return AgentProcess(process, log)


class AgentProcess:
    """A program started by :func:`start_agent`, in its own session."""

    def __init__(self, process: subprocess.Popen[bytes], log: Path) -> None:
        self.process, self.log = process, log

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def returncode(self) -> int | None:
        return self.process.returncode

    def poll(self) -> int | None:
        """Its exit status, or ``None`` while it runs."""
        status = self.process.poll()
        if status is not None:
            _LIVE_SESSIONS.discard(self.process.pid)
        return status

    def wait(self, timeout_s: float = DEFAULT_TIMEOUT_S) -> bool:
        """Wait for its end (``timeout_s``, cut to the verifier's time); ``True`` when it ran past
        that and was killed."""
        return _wait(self.process, seconds_left(timeout_s))

    def stop(self, grace_s: float = 2.0) -> None:
        """SIGTERM to its process group, SIGKILL after ``grace_s``; strays are reaped."""
        if self.process.poll() is None:
            _signal_group(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=grace_s)
            except subprocess.TimeoutExpired:
                pass
        _end(self.process)

    def log_tail(self, size: int = 2000) -> str:
        """The last ``size`` characters of its output."""
        return _tail(self.log)[-size:]


def _popen(
    argv: Sequence[str],
    cwd: Path | None,
    writable: Iterable[Path],
    env: Mapping[str, str] | None,
    home: Path | None,
    stdout: object,
    stderr: object,
    stdin: str | bytes | None,
    pass_fds: Sequence[int],
) -> subprocess.Popen[bytes]:
    seal_hidden()
    home = home or agent_scratch("home-")
    hand_over(*writable, home)
    user = {"user": AGENT_UID, "group": AGENT_UID, "extra_groups": []} if privileged() else {}
    with _STARTING:
        process = _spawn(argv, cwd, env, home, stdout, stderr, stdin, pass_fds, user)
        _LIVE_SESSIONS.add(process.pid)
    return process


def _spawn(
    argv: Sequence[str],
    cwd: Path | None,
    env: Mapping[str, str] | None,
    home: Path,
    stdout: object,
    stderr: object,
    stdin: str | bytes | None,
    pass_fds: Sequence[int],
    user: dict[str, object],
) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        list(argv), cwd=cwd or agent_scratch("cwd-"), env=fresh_env(env, home=home),
        stdin=subprocess.DEVNULL if stdin is None else subprocess.PIPE,
        stdout=stdout, stderr=stderr, start_new_session=True, close_fds=True,
        pass_fds=tuple(pass_fds), **user,  # type: ignore[call-overload]
    )  # fmt: skip
    return process  # type: ignore[no-any-return]


def _feed(process: subprocess.Popen[bytes], data: str | bytes) -> None:
    assert process.stdin is not None
    try:
        process.stdin.write(data.encode() if isinstance(data, str) else data)
        process.stdin.close()
    except OSError:  # the program ended without reading it all
        pass


def _wait(process: subprocess.Popen[bytes], limit: float) -> bool:
    try:
        process.wait(timeout=limit)
        timed_out = False
    except subprocess.TimeoutExpired:
        timed_out = True
    _end(process)
    return timed_out


def _end(process: subprocess.Popen[bytes]) -> None:
    """Kill what is left of ``process``'s session, then every stray of ``nobody``."""
    _signal_group(process.pid, signal.SIGKILL)
    if process.poll() is None:
        process.kill()
    process.wait()
    _LIVE_SESSIONS.discard(process.pid)
    reap_strays()


def _signal_group(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except OSError:  # the group has ended already
        pass


def reap_strays() -> int:
    """Kill every process of ``nobody`` outside the sessions of live calls (privileged only):
    the count killed."""
    if not privileged():
        return 0
    with _STARTING:
        return _reap()


def _reap() -> int:
    killed = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if entry.stat().st_uid != AGENT_UID or _session(entry) in _LIVE_SESSIONS:
                continue
            os.kill(int(entry.name), signal.SIGKILL)
            killed += 1
        except (OSError, ValueError):  # it ended meanwhile
            continue
    return killed


def _session(proc: Path) -> int:
    """The session id in ``/proc/PID/stat`` (after the command's closing parenthesis)."""
    fields = (proc / "stat").read_text().rpartition(")")[2].split()
    return int(fields[3])


def _walk(path: Path) -> Iterable[str]:
    yield str(path)
    if path.is_dir() and not path.is_symlink():
        for root, dirs, files in os.walk(path):
            for name in (*dirs, *files):
                yield os.path.join(root, name)


def _tail(path: Path) -> str:
    try:
        with path.open("rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            handle.seek(max(0, size - OUTPUT_TAIL_BYTES))
            return handle.read().decode("utf-8", "replace")
    except OSError:
        return ""
