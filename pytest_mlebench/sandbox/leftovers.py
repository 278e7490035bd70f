"""Temp folders of a session, named for their owner, and the reaper of a killed session's ones.

A session keeps two kinds of folder in the machine's temp folder: the session's shared folder
(``mlebench-session-<id>``: GPU leases, the image's readiness; the controller removes it at the
end) and each Docker sandbox's socket folder (``mlebench-validator-…``: the validator's, the
builder's and the gateway's sockets; the sandbox removes it when it stops). A ``kill -9`` of the
session skips both removals. So each folder names its owner process — the socket folder in its
name, the session folder in an ``owner`` file (``<pid>-<start time>``, the start time telling a
reused pid apart) — and :func:`reap_leftovers`, run as the next session starts, removes the
folders whose owner is gone. A folder without an owner (made by an older version) goes once it
is :data:`STALE_HOURS` old.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import time
from pathlib import Path

log = logging.getLogger(__name__)

SESSION_PREFIX = "mlebench-session-"
SOCKET_PREFIX = "mlebench-validator-"
OWNER_FILE = "owner"
STALE_HOURS = 48


def process_start(pid: int) -> str:
    """The start time of process ``pid`` in clock ticks since boot (``""``: no such process)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            stat = handle.read(4096)
        return stat.rsplit(b")", 1)[1].split()[19].decode("ascii")
    except (OSError, IndexError, UnicodeDecodeError):
        return ""


def owner_tag(pid: int | None = None) -> str:
    """``<pid>-<start time>`` of this process (or of ``pid``)."""
    pid = os.getpid() if pid is None else pid
    return f"{pid}-{process_start(pid)}"


def owner_gone(tag: str) -> bool:
    """Whether the process a tag names has ended (its pid is free, or reused by another)."""
    pid, _, started = tag.partition("-")
    return not pid.isdigit() or not started or process_start(int(pid)) != started


def make_socket_dir() -> Path:
    """A new socket folder for one sandbox, owned (in its name) by this process."""
    return Path(tempfile.mkdtemp(prefix=f"{SOCKET_PREFIX}{owner_tag()}-"))


def mark_session_dir(folder: Path) -> None:
    """Create the session's shared ``folder`` and name this process as its owner."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / OWNER_FILE).write_text(owner_tag(), "ascii")


def reap_leftovers(temp: Path | None = None, keep: Path | None = None) -> int:
    """Remove the session and socket folders in ``temp`` whose owner is gone (never ``keep``);
    how many were removed."""
    temp = temp or Path(tempfile.gettempdir())
    removed = 0
    for entry in _candidates(temp):
        if keep is not None and entry == keep:
            continue
        if _orphaned(entry):
            shutil.rmtree(entry, ignore_errors=True)
            removed += not entry.exists()
    if removed:
        log.warning("removed %d temp folder(s) left by sessions that were killed", removed)
    return removed


def _candidates(temp: Path) -> list[Path]:
    try:
        with os.scandir(temp) as listing:
            return [
                Path(item.path)
                for item in listing
                if item.name.startswith((SESSION_PREFIX, SOCKET_PREFIX))
                and item.is_dir(follow_symlinks=False)
                and item.stat(follow_symlinks=False).st_uid == os.getuid()
            ]
    except OSError:
        return []


def _orphaned(folder: Path) -> bool:
    tag = _tag_of(folder)
    if tag is not None:
        return owner_gone(tag)
    try:
        age = time.time() - folder.stat().st_mtime
    except OSError:
        return False
    return age > STALE_HOURS * 3600


def _tag_of(folder: Path) -> str | None:
    if folder.name.startswith(SOCKET_PREFIX):
        parts = folder.name[len(SOCKET_PREFIX) :].split("-")
        return f"{parts[0]}-{parts[1]}" if len(parts) >= 3 and parts[0].isdigit() else None
    try:
        with (folder / OWNER_FILE).open("rb") as handle:
            return handle.read(64).decode("ascii", errors="replace").strip() or None
    except OSError:
        return None
