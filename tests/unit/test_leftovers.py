"""Temp folders of a session killed with -9 are reaped by the next session, live ones are kept."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from pytest_mlebench.sandbox.leftovers import (
    OWNER_FILE,
    SESSION_PREFIX,
    SOCKET_PREFIX,
    owner_gone,
    owner_tag,
    reap_leftovers,
)


def dead_tag() -> str:
    """The owner tag of a process that has ended (run it and read its own tag)."""
    code = "from pytest_mlebench.sandbox.leftovers import owner_tag; print(owner_tag())"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def test_folders_of_gone_owners_are_removed_and_live_ones_kept(tmp_path: Path) -> None:
    gone, alive = dead_tag(), owner_tag()
    assert owner_gone(gone) and not owner_gone(alive)
    dead_socket = tmp_path / f"{SOCKET_PREFIX}{gone}-abc123"
    live_socket = tmp_path / f"{SOCKET_PREFIX}{alive}-def456"
    dead_session, live_session = tmp_path / f"{SESSION_PREFIX}a1", tmp_path / f"{SESSION_PREFIX}b2"
    old_unowned, young_unowned = tmp_path / f"{SESSION_PREFIX}c3", tmp_path / f"{SOCKET_PREFIX}x"
    other = tmp_path / "somebody-else"
    for folder in (dead_socket, live_socket, dead_session, live_session, old_unowned):
        folder.mkdir()
    young_unowned.mkdir()
    other.mkdir()
    (dead_session / OWNER_FILE).write_text(gone)
    (live_session / OWNER_FILE).write_text(alive)
    (dead_socket / "validator.sock").write_text("")
    long_ago = time.time() - 72 * 3600
    os.utime(old_unowned, (long_ago, long_ago))
    assert reap_leftovers(tmp_path, keep=live_session) == 3
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted(p.name for p in (live_socket, live_session, young_unowned, other))


def test_the_kept_folder_is_never_removed(tmp_path: Path) -> None:
    mine = tmp_path / f"{SESSION_PREFIX}mine"
    mine.mkdir()
    (mine / OWNER_FILE).write_text(dead_tag())
    assert reap_leftovers(tmp_path, keep=mine) == 0
    assert mine.is_dir()
