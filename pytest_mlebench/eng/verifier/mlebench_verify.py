"""The pytest plugin of a task's hidden verifier: tests → check results in ``checks.json``.

This file runs *inside* the verifier (a fresh container of the task's image, or a fresh process
on the local backend), loaded with ``python3 -m pytest -p mlebench_verify /verify``. It imports
nothing of pytest-mlebench and only what pytest 7.2 (Debian bookworm's) offers, so the same file
serves every image.

The contract a task's ``verify/test_*.py`` follows (see ``docs/engineering.md``):

- every test carries exactly one ``@pytest.mark.check("ID")`` naming the check of the task's
  ``config.yaml`` it counts for; several tests may share an id: the check's result is the
  fraction of its tests that passed (a failed, errored or skipped test counts 0);
- the fixture ``evidence`` attaches a short text to the test's check
  (``evidence("max |Δ| 1.3e-07 over batches 1, 3, 17")``);
- the fixture ``metric`` records a continuous metric declared under ``metrics:``
  (``metric("MS1", 0.83)``); the host normalises it between the task's baseline and oracle;
- the fixtures ``work_dir``, ``private_dir``, ``pristine_dir`` and ``seed`` give the verifier's
  paths and the run's seed; ``free_port`` picks an unused TCP port on localhost.

Every test has a time limit (:func:`pytest_runtest_protocol`): ``@pytest.mark.check("ID",
timeout=S)`` where the task sets one, and never past 90 % of the verifier's time
(``VERIFY_TIME_LIMIT``, the line the agent-code helper draws too). A test past its limit is
interrupted (``SIGALRM``) and fails: a slow or hung service of the agent is a failed check, and
the verifier still writes its results in time.

The results go to ``$VERIFY_OUT/checks.json`` at the end of the session, written atomically and
sealed: ``seal`` is the HMAC-SHA256, under this run's key, of the document's canonical JSON
(sorted keys, no spaces, ASCII); the host accepts no document without this run's seal. The key
comes from the host only: on the local backend through the pipe ``$MLEBENCH_VERIFY_KEY_FD``,
drained and closed before the first test; in a verifier container from the root-only file
:data:`KEY_PATH`, read and deleted only after every other process is killed — whatever the agent's
own code left running there (a daemonised server, a background writer) — so no process the
verifier started ever runs while the key is in memory, and none is alive when the file is
written. The harness reads it through the engine after the container has exited.
"""

from __future__ import annotations

import contextlib
import ctypes
import hashlib
import hmac
import json
import os
import signal
import socket
import time
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

import mlebench_verify_time
import pytest
from mlebench_agent_code import in_verifier_container

FORMAT_VERSION = 1
MARK = "check"
MODULE = "mlebench_verify"
KEY_FD_ENV = "MLEBENCH_VERIFY_KEY_FD"
KEY_PATH = "/run/mlebench-verify/key"  # the harness writes it into the container (root, 0400)
SEAL_FIELD = "seal"
PR_SET_DUMPABLE = 4
REAP_ROUNDS = 200  # × 10 ms: how long the killed processes may take to go
_RESULTS: dict[str, dict[str, Any]] = {}
_METRICS: dict[str, float] = {}
_STARTED = time.monotonic()
_KEY: list[bytes] = []  # the local backend's key, read from its pipe at configure


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{MARK}(id, timeout=None): the check of the task's config.yaml this test counts for; "
        "timeout: the test's own limit in seconds",
    )
    key = _key_from_pipe()
    if key:
        _KEY.append(key)
    config.pluginmanager.register(mlebench_verify_time, "mlebench_verify_time")
    not_dumpable()


def not_dumpable() -> None:
    """Make this process non-dumpable: no process without ``CAP_SYS_PTRACE`` — the agent's code as
    the verifier's own user (the local backend), even as root in the verifier's container, which
    lacks that capability — may trace it or read its memory and environment through ``/proc``
    (what holds the key). Where ``prctl`` is missing (not Linux) nothing changes."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


def _key_from_pipe() -> bytes:
    """The local backend's key: read to the end of its pipe, which is then closed, so no process
    the verifier starts inherits it or finds it in the environment."""
    number = os.environ.pop(KEY_FD_ENV, "")
    if not number.isdigit():
        return b""
    chunks = []
    try:
        while chunk := os.read(int(number), 4096):
            chunks.append(chunk)
        os.close(int(number))
    except OSError:
        return b""
    return _decode_key(b"".join(chunks))


def _key_from_file() -> bytes:
    """The container's key, read once and deleted (root only: it is ``0400`` in a ``0700``
    folder of root's)."""
    try:
        data = Path(KEY_PATH).read_bytes()
        os.unlink(KEY_PATH)
    except OSError:
        return b""
    return _decode_key(data)


def _decode_key(data: bytes) -> bytes:
    try:
        return bytes.fromhex(data.decode("ascii").strip())
    except ValueError:
        return b""


def check_id(item: pytest.Item) -> str:
    """The check id of ``item``; a usage error (the verifier's own bug) when it has none."""
    marks = list(item.iter_markers(MARK))
    if len(marks) != 1 or len(marks[0].args) != 1 or not isinstance(marks[0].args[0], str):
        raise pytest.UsageError(
            f"{item.nodeid}: every verifier test needs exactly one @pytest.mark.check('ID')"
        )
    return str(marks[0].args[0])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        _entry(check_id(item))


def _entry(check: str) -> dict[str, Any]:
    return _RESULTS.setdefault(check, {"tests": [], "evidence": []})


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, Any, None]:
    outcome = yield
    report: pytest.TestReport = outcome.get_result()
    failed_setup = report.when == "setup" and not report.passed
    if report.when == "call" or failed_setup or (report.when == "teardown" and report.failed):
        _record(item, report)


def _record(item: pytest.Item, report: pytest.TestReport) -> None:
    tests: list[dict[str, Any]] = _entry(check_id(item))["tests"]
    state = "skipped" if report.skipped else ("passed" if report.passed else "failed")
    if report.when == "setup" and report.failed:
        state = "error"
    existing = next((test for test in tests if test["name"] == item.nodeid), None)
    if existing is not None:  # a teardown failure after a passed call turns it into a failure
        if state != "passed":
            existing["outcome"] = state
            existing["message"] = _message(report)
        return
    tests.append(
        {
            "name": item.nodeid,
            "outcome": state,
            "duration": round(report.duration, 3),
            "message": _message(report),
        }
    )


def _message(report: pytest.TestReport) -> str | None:
    if report.passed:
        return None
    if report.skipped and isinstance(report.longrepr, tuple):
        return str(report.longrepr[2])[:500]
    crash = getattr(report.longrepr, "reprcrash", None)
    text = crash.message if crash is not None else str(report.longrepr)
    return text[:500]


@pytest.fixture
def evidence(request: pytest.FixtureRequest) -> Callable[[str], None]:
    """``evidence(text)``: attach ``text`` to this test's check."""
    check = check_id(request.node)

    def add(text: str) -> None:
        _entry(check)["evidence"].append(str(text)[:500])

    return add


@pytest.fixture
def metric() -> Callable[[str, float], None]:
    """``metric(id, value)``: record the continuous metric ``id`` (declared in config.yaml)."""

    def record(name: str, value: float) -> None:
        _METRICS[name] = float(value)

    return record


def _env_path(name: str) -> Path:
    value = os.environ.get(name)
    if not value:
        raise pytest.UsageError(f"the verifier needs ${name}; run it through the harness")
    return Path(value)


@pytest.fixture
def work_dir() -> Path:
    """The agent's workspace as it was when the agent stopped (a copy: change it freely)."""
    return _env_path("WORK_DIR")


@pytest.fixture
def private_dir() -> Path:
    """The task's private files for this seed (expected outputs, hidden inputs)."""
    return _env_path("PRIVATE_DIR")


@pytest.fixture
def pristine_dir() -> Path:
    """The workspace as the agent received it (the starting code of this seed)."""
    return _env_path("PRISTINE_DIR")


@pytest.fixture
def seed() -> int:
    return int(os.environ.get("MLEBENCH_SEED", "0"))


@pytest.fixture
def free_port() -> Callable[[], int]:
    """``free_port()``: a TCP port on localhost that nothing listens on right now."""

    def pick() -> int:
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
            sock.bind(("127.0.0.1", 0))
            return int(sock.getsockname()[1])

    return pick


def results(exit_status: int) -> dict[str, Any]:
    """The document written to ``checks.json``: per check its tests, passed/total, evidence."""
    checks = {}
    for check, entry in sorted(_RESULTS.items()):
        tests = entry["tests"]
        passed = sum(test["outcome"] == "passed" for test in tests)
        checks[check] = {
            "passed": passed,
            "total": len(tests),
            "result": passed / len(tests) if tests else 0.0,
            "evidence": entry["evidence"],
            "tests": tests,
        }
    return {
        "version": FORMAT_VERSION,
        "exit_status": exit_status,
        "wall_s": round(time.monotonic() - _STARTED, 3),
        "checks": checks,
        "metrics": dict(sorted(_METRICS.items())),
    }


def reap_other_processes() -> int:
    """Kill every process of the container but this one and PID 1; how many were left alive.

    One ``kill(-1, SIGKILL)``: the kernel signals every process it may while holding the process
    list, so none forks past it (a process with SIGKILL pending cannot fork), not even one of the
    verifier's own user racing the kill. Then wait (briefly) until the killed ones are gone. Only
    where this process is PID 1 or its child — the verifier's container, never a host."""
    if os.getpid() != 1 and os.getppid() != 1:
        return len(_others())
    try:
        os.kill(-1, signal.SIGKILL)
    except OSError:  # nothing else was left to signal
        pass
    for _ in range(REAP_ROUNDS):
        if not _others():
            break
        time.sleep(0.01)
    return len(_others())


def _others() -> list[int]:
    return [pid for pid in _live_pids() if pid not in (1, os.getpid())]


def _stat_fields(pid: int) -> list[str]:
    """The fields of ``/proc/PID/stat`` after the command: state, parent, …"""
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def _live_pids() -> list[int]:
    """Processes that are not zombies (a killed child stays listed until its parent reaps it)."""
    live = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if _stat_fields(int(entry.name))[0] not in ("Z", "X"):
                    live.append(int(entry.name))
            except (OSError, IndexError):
                continue
    return live


def sealed(document: dict[str, Any], key: bytes) -> dict[str, Any]:
    """``document`` with its ``seal`` under ``key`` (none without a key: the host rejects it)."""
    if not key:
        return document
    body = json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return {**document, SEAL_FIELD: hmac.new(key, body.encode(), hashlib.sha256).hexdigest()}


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    out = os.environ.get("VERIFY_OUT")
    if not out:
        return
    mlebench_verify_time.disarm()
    key = _KEY[0] if _KEY else b""
    if in_verifier_container():
        reap_other_processes()
        key = key or _key_from_file()
    target = Path(out) / "checks.json"
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_suffix(".json.partial")
    document = sealed(results(int(exitstatus)), key)
    partial.unlink(missing_ok=True)  # never write through a link someone left there
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(json.dumps(document, indent=2))
    os.replace(partial, target)
