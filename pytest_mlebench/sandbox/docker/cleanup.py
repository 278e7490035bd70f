"""Container hygiene: labels that say who owns a container, removal, and the reaper.

Every container carries the labels below. The owner label (``host:pid:start-time``) lets the reaper
tell a container of a live pytest process (leave it) from one whose process died without cleaning
up (remove it) — a crashed xdist worker, a ``kill -9``, a power cut. A pid only names a process
within one kernel boot and one PID namespace, its *process space* (boot id and namespace inode,
in a label of its own so that the owner label keeps the format older versions read); the host
name does not tell process spaces apart (VMs cloned from one image, CI jobs in containers sharing
an engine), so an owner from another process space is never judged dead by a pid lookup here.
Containers of the current session are only removed once their owner is gone, so
``reap_containers`` is safe to call at session start, at session finish and by hand
(``mlebench sandbox cleanup``).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import logging
import os
import signal
import socket
import threading
import uuid
from datetime import datetime, timezone
from pathlib import Path
from types import FrameType
from typing import Any

from pytest_mlebench.sandbox.docker.engine import docker_client, import_docker

log = logging.getLogger(__name__)

LABEL_PREFIX = "pytest-mlebench"
MANAGED_LABEL = f"{LABEL_PREFIX}.managed"
RUN_ID_LABEL = f"{LABEL_PREFIX}.run-id"
COMPETITION_LABEL = f"{LABEL_PREFIX}.competition"
WORKER_LABEL = f"{LABEL_PREFIX}.worker"
SESSION_LABEL = f"{LABEL_PREFIX}.session"
OWNER_LABEL = f"{LABEL_PREFIX}.owner"
PROCESS_SPACE_LABEL = f"{LABEL_PREFIX}.process-space"
SESSION_ENV = "MLEBENCH_SESSION_ID"
STOP_GRACE_SECONDS = 2
FOREIGN_STALE_HOURS = 48

_live: dict[str, Any] = {}
_live_lock = threading.Lock()
_handlers_installed = False


def current_session_id() -> str:
    """This test session's id, shared with xdist workers through ``MLEBENCH_SESSION_ID``.

    The first call in the controller makes one and puts it in the environment, so workers started
    afterwards inherit it.
    """
    session = os.environ.get(SESSION_ENV)
    if not session:
        session = uuid.uuid4().hex[:12]
        os.environ[SESSION_ENV] = session
    return session


def current_worker() -> str:
    """The xdist worker id (``gw0`` …), or ``main`` without xdist."""
    return os.environ.get("PYTEST_XDIST_WORKER", "main")


def owner_token(pid: int | None = None) -> str:
    """``host:pid:start-time`` of a process; the start time guards against pid reuse."""
    pid = os.getpid() if pid is None else pid
    return f"{socket.gethostname()}:{pid}:{_start_time(pid)}"


def owner_alive(token: str) -> bool:
    """Whether the process named by ``token`` still runs (only knowable on the same host)."""
    host, _, rest = token.partition(":")
    pid_text, _, started = rest.partition(":")
    if host != socket.gethostname() or not pid_text.isdigit():
        return False
    return _start_time(int(pid_text)) == started != ""


@functools.cache
def process_space() -> str:
    """``<boot id>.<pid namespace inode>``: where a pid names the same process as here."""
    try:
        boot = Path("/proc/sys/kernel/random/boot_id").read_text("ascii").strip()
        namespace = os.readlink("/proc/self/ns/pid")  # "pid:[4026531836]"
    except OSError:
        return "unknown"  # no /proc: no owner can be checked, removal is by hand or by age
    return f"{boot}.{''.join(ch for ch in namespace if ch.isdigit())}"


def owned_here(labels: dict[str, str]) -> bool:
    """Whether the owner named by ``labels`` can be looked up in this process space.

    Containers made before the process-space label existed fall back to the host name.
    """
    space = labels.get(PROCESS_SPACE_LABEL)
    if space is not None:
        return space == process_space()
    return labels.get(OWNER_LABEL, "").startswith(f"{socket.gethostname()}:")


def _start_time(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""


def ownership_labels(run_id: str, competition_id: str) -> dict[str, str]:
    """The labels every sandbox container carries."""
    return {
        MANAGED_LABEL: "true",
        RUN_ID_LABEL: run_id,
        COMPETITION_LABEL: competition_id,
        WORKER_LABEL: current_worker(),
        SESSION_LABEL: current_session_id(),
        OWNER_LABEL: owner_token(),
        PROCESS_SPACE_LABEL: process_space(),
    }


def remove_container(container: Any, *, graceful: bool = True) -> None:
    """Stop, kill, then remove ``container``; every step tolerates a container already gone."""
    errors = import_docker().errors
    steps = [container.kill, lambda: container.remove(force=True, v=True)]
    if graceful:
        steps.insert(0, lambda: container.stop(timeout=STOP_GRACE_SECONDS))
    for step in steps:
        try:
            step()
        except errors.NotFound:
            return
        except errors.APIError as exc:
            # "is not running" on kill, "removal already in progress": the next step decides.
            log.debug("container %s: %s", getattr(container, "name", "?"), exc)
    forget(container)


def remember(container: Any) -> None:
    """Track a container of this process, so a signal or interpreter exit still removes it."""
    _install_handlers()
    with _live_lock:
        _live[container.id] = container


def forget(container: Any) -> None:
    with _live_lock:
        _live.pop(container.id, None)


def remove_live_containers() -> int:
    """Remove every container this process started and has not removed yet."""
    with _live_lock:
        containers = list(_live.values())
    for container in containers:
        remove_container(container, graceful=False)
    return len(containers)


def _install_handlers() -> None:
    """On SIGTERM and at exit, remove this process's containers before going away."""
    global _handlers_installed
    if _handlers_installed:
        return
    _handlers_installed = True
    atexit.register(remove_live_containers)
    if threading.current_thread() is not threading.main_thread():
        return  # signal handlers can only be set from the main thread
    previous = signal.getsignal(signal.SIGTERM)

    def on_sigterm(signum: int, frame: FrameType | None) -> None:
        remove_live_containers()
        if callable(previous):
            previous(signum, frame)
        else:
            raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, on_sigterm)


def reap_containers(older_than_session: str | None = None, *, include_live: bool = False) -> int:
    """Remove sandbox containers left behind; returns how many were removed.

    A container whose owner process in this process space has died is always removed (earlier
    runs, crashed xdist workers of this session). One whose owner runs elsewhere — another
    machine or container on a shared engine, whatever its host name — cannot be checked: it is
    removed by hand (``older_than_session=None``), or automatically once it belongs to another
    session and is older than ``FOREIGN_STALE_HOURS``.

    Args:
        older_than_session: The id of the session that is starting or finishing; ``None`` when
            cleaning up by hand.
        include_live: Also remove containers whose owner still runs (a session running right now
            loses its sandboxes).
    """
    client = docker_client()
    try:
        found = managed_containers(client)
        stale = [c for c in found if include_live or _abandoned(c, older_than_session)]
        for container in stale:
            log.info("removing leftover sandbox container %s", container.name)
            remove_container(container, graceful=False)
    finally:
        client.close()
    reap_networks()  # egress networks of dead owners, once their containers are gone
    return len(stale)


def managed_containers(client: Any) -> list[Any]:
    """Every container with the harness's label, running or not."""
    return list_containers(client, {"label": MANAGED_LABEL}, all=True)


def list_containers(
    client: Any, filters: dict[str, str], *, all: bool = False, attempts: int = 5
) -> list[Any]:
    """The containers matching ``filters``. Listing inspects each one, so a container that
    another run removes meanwhile (its own run ending) makes the engine answer 404: list
    again, as that container is gone for good."""
    not_found = import_docker().errors.NotFound
    for _ in range(attempts - 1):
        try:
            return list(client.containers.list(all=all, filters=filters))
        except not_found:
            continue
    return list(client.containers.list(all=all, filters=filters))


def reap_networks() -> int:
    """Remove egress networks (:mod:`.egress`) whose owner process died; how many were removed."""
    client = docker_client()
    removed = 0
    try:
        for network in client.networks.list(filters={"label": MANAGED_LABEL}):
            labels: dict[str, str] = network.attrs.get("Labels") or {}
            if owned_here(labels) and not owner_alive(labels.get(OWNER_LABEL, "")):
                with contextlib.suppress(Exception):
                    network.remove()
                    removed += 1
    finally:
        client.close()
    return removed


def reap_build_images(*, by_hand: bool = False, include_live: bool = False) -> int:
    """Remove the images the harness's builder made for runs whose process died before its
    builder removed them (a killed worker, a power cut); how many were removed. ``by_hand``
    (``mlebench sandbox cleanup``) also removes those of owners that cannot be checked from here,
    ``include_live`` every one."""
    from pytest_mlebench.sandbox.docker.image_builder import BUILD_LABEL

    client = docker_client()
    removed = 0
    try:
        for image in client.images.list(filters={"label": BUILD_LABEL}):
            labels: dict[str, str] = image.labels or {}
            if include_live or _owner_gone(labels, by_hand):
                with contextlib.suppress(import_docker().errors.NotFound):
                    client.images.remove(image.id, force=True)
                    removed += 1
    finally:
        client.close()
    return removed


def _owner_gone(labels: dict[str, str], by_hand: bool) -> bool:
    if owned_here(labels):
        return not owner_alive(labels.get(OWNER_LABEL, ""))
    return by_hand


def _abandoned(container: Any, session: str | None) -> bool:
    labels: dict[str, str] = container.labels or {}
    if owned_here(labels):
        return not owner_alive(labels.get(OWNER_LABEL, ""))
    if session is None:
        return True
    return labels.get(SESSION_LABEL) != session and _age_hours(container) > FOREIGN_STALE_HOURS


def _age_hours(container: Any) -> float:
    created = str(container.attrs.get("Created", ""))
    try:
        # The engine writes nanoseconds; fromisoformat takes at most microseconds.
        stamp = datetime.fromisoformat(created[:26].rstrip("Z") + "+00:00")
    except ValueError:
        return 0.0
    return (datetime.now(timezone.utc) - stamp).total_seconds() / 3600
