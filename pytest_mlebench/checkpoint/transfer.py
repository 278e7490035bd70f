"""A snapshot as one archive, for the trip from a Ray node to the controller and back.

A node packs each snapshot it takes (:func:`pack_snapshot`) and sends it to the controller's
desk, which stores it in the controller's run folder (:func:`store_snapshot`) while the run is
live, so a run whose node dies, or whose controller is killed, still has its last snapshot on the
controller. A retry on another node gets the archive back and unpacks it there
(:func:`unpack_snapshot`) before restoring it into its fresh sandbox. Archives hold regular files
and folders only (a snapshot holds nothing else) and are unpacked within a byte bound, with the
``data`` filter (no absolute paths, no ``..``, no links).
"""

from __future__ import annotations

import io
import os
import shutil
import tarfile
from pathlib import Path

from pytest_mlebench.checkpoint.snapshot import (
    CHECKPOINTS,
    Snapshot,
    SnapshotInfo,
    latest_snapshot,
    link_unchanged,
)

SLACK_BYTES = 16 * 1024**2  # the two JSON files beside what the cap admitted


def pack_snapshot(folder: Path) -> bytes:
    """The snapshot in ``folder`` as a gzipped tar of its files (links are stored as files)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for here, folders, names in os.walk(folder):
            folders.sort()
            for name in sorted(names):
                path = Path(here) / name
                if path.is_file() and not path.is_symlink():
                    tar.add(path, arcname=path.relative_to(folder).as_posix(), recursive=False)
    return buffer.getvalue()


def unpack_snapshot(data: bytes, folder: Path, max_bytes: int) -> Snapshot:
    """Unpack an archive of :func:`pack_snapshot` into ``folder`` (made here).

    Raises:
        ValueError: The archive holds something other than files and folders, more than
            ``max_bytes`` (plus room for its JSON), or no ``snapshot.json``.
    """
    folder.mkdir(parents=True)
    total = 0
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        for member in tar:
            if not (member.isfile() or member.isdir()):
                raise ValueError(f"a snapshot archive holds {member.name!r}, not a file")
            total += member.size
            if total > max_bytes + SLACK_BYTES:
                raise ValueError(f"a snapshot archive holds more than {max_bytes} bytes")
            tar.extract(member, folder, filter="data")
    info = SnapshotInfo.read(folder)
    if info is None:
        raise ValueError("a snapshot archive without its snapshot.json")
    return Snapshot(folder, info)


def store_snapshot(run_dir: Path, data: bytes, max_bytes: int) -> Snapshot:
    """Keep a node's snapshot archive as ``run_dir/checkpoints/NNNN`` (its own number), files
    that did not change since the previous one stored there hard-linked to it."""
    previous = latest_snapshot(run_dir)
    partial = run_dir / CHECKPOINTS / f"incoming-{os.getpid()}-{id(data)}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    snapshot = unpack_snapshot(data, partial, max_bytes)
    link_unchanged(partial, previous)
    final = run_dir / CHECKPOINTS / f"{snapshot.info.number:04d}"
    if final.exists():  # a retry's snapshot numbers go on from the last one kept
        shutil.rmtree(partial, ignore_errors=True)
        return Snapshot(final, SnapshotInfo.read(final) or snapshot.info)
    os.replace(partial, final)
    return Snapshot(final, snapshot.info)
