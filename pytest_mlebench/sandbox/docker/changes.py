"""A container's file-system changes, read from its overlay layer when the harness can.

The engine's own diff (``GET /containers/{id}/changes``, ``docker diff``) compares the container's
whole tree with its image's on engines that cannot use overlayfs' native diff — about 3 s per
container on the project's machine with the 2.5 GB ``eng`` image, whatever the agent changed.
Every Docker run asks for it (the integrity check of writes outside the contract), so it was a
fixed cost of each run.

With overlay2 the changed files are exactly the container's upper directory: new and modified
files and folders, and whiteouts (character devices 0:0) for deletions. When the engine is on this
machine and that directory is readable (the harness runs as root), :func:`container_changes`
walks it — milliseconds for a typical run — and lists the same ``Path``/``Kind`` entries as the
engine (``0`` changed, ``1`` added, ``2`` deleted; a path that exists in a lower layer counts as
changed). Anywhere else (a remote engine, another storage driver, no permission to read
``/var/lib/docker``) it asks the engine, as before.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

from pytest_mlebench.sandbox.docker.engine import engine_is_remote

CHANGED, ADDED, DELETED = 0, 1, 2
MAX_CHANGES = 200_000  # entries kept of a diff (an agent can make millions of files)
WHITEOUT_PREFIX = ".wh."  # aufs-style whiteouts, which overlay2 does not write but may import


def container_changes(container: Any) -> list[dict[str, Any]]:
    """The container's changes as the engine's diff lists them (fast path: its upper layer)."""
    layers = overlay_layers(container)
    if layers is not None:
        upper, lowers = layers
        try:
            return list(islice(walk_upper(upper, lowers), MAX_CHANGES))
        except (OSError, RecursionError):
            pass  # gone, unreadable, or a tree deeper than the walk goes: ask the engine
    return list(container.diff() or [])[:MAX_CHANGES]


def overlay_layers(container: Any) -> tuple[Path, list[Path]] | None:
    """The container's upper directory and its image's lower ones, when this process can read
    them; ``None`` otherwise."""
    if engine_is_remote():
        return None
    driver = (getattr(container, "attrs", None) or {}).get("GraphDriver") or {}
    data = driver.get("Data") or {}
    if driver.get("Name") != "overlay2" or not data.get("UpperDir"):
        return None
    upper = Path(data["UpperDir"])
    if not os.access(upper, os.R_OK | os.X_OK):
        return None
    lowers = [Path(p) for p in str(data.get("LowerDir") or "").split(":") if p]
    return upper, lowers


def walk_upper(upper: Path, lowers: list[Path]) -> Iterator[dict[str, Any]]:
    """``Path``/``Kind`` entries for everything in ``upper`` (parents before children)."""
    for folder, dirs, files in os.walk(upper):
        relative = os.path.relpath(folder, upper)
        base = "/" if relative == "." else "/" + relative
        for name in sorted(dirs) + sorted(files):
            path = os.path.join(base, name)
            info = os.lstat(os.path.join(folder, name))
            if stat.S_ISCHR(info.st_mode) and info.st_rdev == 0:
                yield {"Path": path, "Kind": DELETED}
            elif name.startswith(WHITEOUT_PREFIX):
                yield {"Path": os.path.join(base, name[len(WHITEOUT_PREFIX) :]), "Kind": DELETED}
            else:
                in_image = any(os.path.lexists(str(lower) + path) for lower in lowers)
                yield {"Path": path, "Kind": CHANGED if in_image else ADDED}
