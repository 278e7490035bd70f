"""Ending every process of the agent's user in a container, whatever its pids count.

Three steps, each checked from outside the container by the engine's ``top`` (a ``ps`` on the
engine's host, which needs no process slot inside the container):

1. the *killer*: a short exec as the agent user, ``kill -KILL -1`` until nothing is left (the
   usual case; it reaches a tree that forked, double-forked or called ``setsid``);
2. when the killer cannot start (the container sits at its pids limit, so no exec can) or leaves
   survivors: a ``SIGUSR2`` sent by the engine to the container's init, which hands it to the
   lease keeper (:mod:`.expiry`), a root shell started before the agent; its trap runs the
   *builtin* ``kill -KILL -1`` — no fork, so the pids limit cannot stop it — and re-arms its
   lease;
3. still survivors after :data:`SETTLE_SECONDS` (the keeper is signalled again every
   :data:`RESIGNAL_SECONDS` meanwhile, in case a loaded host runs the trap late; the keeper waits
   for the killed processes to be reaped before it forks again, :mod:`.expiry`): the caller
   restarts the container (the last resort; the writable layer and its files stay).

Zombies are not counted: they hold no resources the agent can use, and the engine's init reaps
them on its own schedule.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pytest_mlebench.sandbox.docker.engine import import_docker

log = logging.getLogger(__name__)

AGENT_USER = "nonroot"
AGENT_UID = 1000
KILL_ROUNDS = 20
SETTLE_SECONDS = 10.0
RESIGNAL_SECONDS = 1.0
POLL_SECONDS = 0.1
# Run as the agent user: kill(-1) reaches every process that user owns except this shell.
KILL_SCRIPT = f"for i in $(seq {KILL_ROUNDS}); do kill -KILL -1 2>/dev/null || exit 0; done; exit 1"
KEEPER_SIGNAL = "SIGUSR2"


def kill_agent_processes(container: Any, settle: float = SETTLE_SECONDS) -> bool:
    """SIGKILL every process of the agent user in ``container``; True when the engine's ``top``
    shows none left (or, where ``top`` cannot tell, when the killer said so)."""
    killer_done = run_killer(container)
    left = agent_processes(container)
    if left == 0 or (left is None and killer_done):
        return True
    log.info("the agent's processes outlived the killer; signalling the lease keeper")
    signal_keeper(container)
    started = time.monotonic()
    signalled = started
    while (now := time.monotonic()) < started + settle:
        if agent_processes(container) == 0:
            return True
        if now - signalled >= RESIGNAL_SECONDS:
            signal_keeper(container)
            signalled = now
        time.sleep(POLL_SECONDS)
    return False


def run_killer(container: Any) -> bool:
    """The in-container killer (step 1); False when it could not start or left survivors."""
    try:
        code, _ = container.exec_run(["sh", "-c", KILL_SCRIPT], user=AGENT_USER)
    except import_docker().errors.APIError as exc:
        # A fork bomb at the pids limit leaves no room to start the killer itself.
        log.debug("cannot start the process killer: %s", exc)
        return False
    return bool(code == 0)


def signal_keeper(container: Any) -> bool:
    """Step 2: the keeper's builtin ``kill -KILL -1``; False when the engine refused."""
    try:
        container.kill(signal=KEEPER_SIGNAL)
    except import_docker().errors.APIError as exc:
        log.debug("cannot signal the lease keeper: %s", exc)
        return False
    return True


def agent_processes(container: Any) -> int | None:
    """How many live (not zombie) processes of the agent's uid the engine's ``top`` lists
    (``None``: unknown)."""
    try:
        top = container.top(ps_args="-eo uid,pid,stat")
    except import_docker().errors.APIError as exc:
        log.debug("the engine's top failed: %s", exc)
        return None
    titles = [str(t).upper() for t in top.get("Titles") or []]
    if "UID" not in titles:
        return None
    uid = titles.index("UID")
    stat = titles.index("STAT") if "STAT" in titles else None
    return sum(
        str(row[uid]).strip() == str(AGENT_UID)
        and (stat is None or not str(row[stat]).startswith("Z"))
        for row in top.get("Processes") or []
    )


class AgentExecs:
    """Whether the agent user can still have a process in a container. Only an agent exec
    starts one, and each ends with the killer (or a restart when processes survive it), so
    once the last running agent exec has returned, none is left until the next one starts; an
    exec that raised may have left its processes."""

    def __init__(self) -> None:
        self._running = 0
        self._none_left = False
        self._lock = threading.Lock()

    @property
    def none_left(self) -> bool:
        with self._lock:
            return self._none_left

    @contextmanager
    def running(self) -> Iterator[None]:
        """Around one agent exec."""
        with self._lock:
            self._running += 1
            self._none_left = False
        returned = False
        try:
            yield
            returned = True
        finally:
            with self._lock:
                self._running -= 1
                self._none_left = returned and self._running == 0
