"""The verifier's per-test time limits (registered by ``mlebench_verify``; stdlib + pytest 7.2).

Each test must end by its deadline (:func:`deadline_of`): its own ``@pytest.mark.check("ID",
timeout=S)`` where the task sets one, and in any case 90 % of the verifier's time limit
(``VERIFY_TIME_LIMIT``, at least a second short of it), counted from the start of the process
as the harness counts. ``SIGALRM`` interrupts a test at its deadline with :class:`CheckTimeout`
(a ``BaseException``, so ``except Exception`` in the code under test does not swallow it; a test
that swallows it anyway is interrupted again every :data:`REPEAT_S` seconds), and the test fails:
a slow or hung service of the agent is a failed check, and the verifier still writes its results
in time. A test that starts after the verifier's time is used up fails at once. Teardown gets a
short grace, so fixtures still stop what they started. What cannot be interrupted (a C call
holding the signal) is left to the harness, which then fails the run.
"""

from __future__ import annotations

import math
import os
import signal
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

MARK = "check"
TIME_SHARE = 0.9  # of VERIFY_TIME_LIMIT, from the process's start: the rest writes the results
MIN_RESERVE_S = 1.0  # and never less than this for them
REPEAT_S = 0.25  # a test that swallowed its interruption is interrupted again this often
TEARDOWN_GRACE_S = 5.0  # a timed-out test still gets this for its fixtures to stop services
_LOADED = time.monotonic()
_ARMED: dict[str, bool] = {"on": False, "repeat": False}  # the phase the alarm may interrupt
_DEADLINE = pytest.StashKey[float]()


class CheckTimeout(BaseException):
    """A verifier test ran past its time limit: its check fails."""


def pytest_configure(config: pytest.Config) -> None:
    if hasattr(signal, "setitimer"):
        signal.signal(signal.SIGALRM, _alarm)


def _alarm(signum: int, frame: Any) -> None:
    if not _ARMED["on"]:  # the phase ended as the alarm came: nothing to interrupt
        return
    if _ARMED["repeat"]:  # a test that swallowed the first one is interrupted again
        signal.setitimer(signal.ITIMER_REAL, REPEAT_S)
    raise CheckTimeout("the test ran past its time limit: the agent's code was too slow or hung")


def session_deadline() -> float:
    """The monotonic time after which no test may run: 90 % of the verifier's limit (at least
    a second short of it), counted from this process's start, as the harness counts."""
    limit = _limit()
    return _PROCESS_START + min(TIME_SHARE * limit, limit - MIN_RESERVE_S) if limit else math.inf


def teardown_deadline() -> float:
    """The latest a teardown may run: half-way into the time kept for writing the results."""
    limit = _limit()
    return (session_deadline() + _PROCESS_START + limit) / 2 if limit else math.inf


def _limit() -> float:
    return max(0.0, float(os.environ.get("VERIFY_TIME_LIMIT") or 0))


def _process_age() -> float:
    """Seconds since this process started (the interpreter's and pytest's own start-up), from
    ``/proc``; 0 where that cannot be read."""
    try:
        fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
        ticks = int(fields[19])  # starttime: clock ticks after boot
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        return max(0.0, uptime - ticks / os.sysconf("SC_CLK_TCK"))
    except (OSError, ValueError, IndexError):
        return 0.0


_PROCESS_START = _LOADED - _process_age()  # monotonic, like every deadline here


def deadline_of(item: pytest.Item, now: float) -> float:
    """The monotonic time ``item`` must end by: its own ``timeout`` from now, and the session's."""
    own = next(iter(item.iter_markers(MARK))).kwargs.get("timeout")
    mine = now + float(own) if isinstance(own, (int, float)) and own > 0 else math.inf
    return min(mine, session_deadline())


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    item.stash[_DEADLINE] = deadline_of(item, time.monotonic())
    yield


@contextmanager
def _limited(deadline: float, repeat: bool) -> Iterator[None]:
    """``SIGALRM`` at ``deadline`` (with ``repeat``, again every :data:`REPEAT_S` seconds: a test
    that swallows the first is interrupted again); at once when it has passed."""
    if not hasattr(signal, "setitimer") or deadline == math.inf:
        yield
        return
    left = deadline - time.monotonic()
    if left <= 0:
        raise CheckTimeout("no time was left for this test: earlier tests used the verifier's time")
    _ARMED.update(on=True, repeat=repeat)
    signal.setitimer(signal.ITIMER_REAL, left)
    try:
        yield
    finally:
        _ARMED["on"] = False
        signal.setitimer(signal.ITIMER_REAL, 0)


# trylast: the innermost wrappers, so the alarm is off before pytest's own wrappers resume
@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_setup(item: pytest.Item) -> Iterator[None]:
    with _limited(item.stash[_DEADLINE], repeat=False):
        yield


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    with _limited(item.stash[_DEADLINE], repeat=True):
        yield


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_teardown(item: pytest.Item) -> Iterator[None]:
    """Teardown stops what the test started: it gets a short grace even after a time-out."""
    grace = min(time.monotonic() + TEARDOWN_GRACE_S, teardown_deadline())
    with _limited(max(item.stash[_DEADLINE], grace), repeat=False):
        yield


def disarm() -> None:
    """No alarm from now on (the session is writing its results)."""
    _ARMED["on"] = False
    if hasattr(signal, "setitimer"):
        signal.setitimer(signal.ITIMER_REAL, 0)
