"""One snapshot of a live run: what the agent has made, copied to the host's run folder.

A snapshot is ``run_dir/checkpoints/NNNN/``: the submission, ``code/``, ``logs/``, the agent's own
folder (``agent/``: its working files, e.g. AIDE's workspaces) and an engineering run's
``workspace/`` (``WORK_DIR``), never the data the agent was given. Every byte comes through the
sandbox's ``copy_out`` within a :class:`~pytest_mlebench.sandbox.copy_budget.CopyBudget` of the
snapshot's cap, so links are never followed, FIFOs and devices never opened, and a huge or
sparse file is left behind with a note; ``snapshot.json`` says what was left and why.

Snapshots are incremental on disk: a file whose size and SHA-256 match the same path in the
previous snapshot becomes a hard link to it, so an unchanged 1 GB model costs its bytes once.
A snapshot is built in ``NNNN.partial/`` and renamed when complete: a folder without the
``.partial`` suffix always holds a whole snapshot, whatever killed the harness meanwhile.
"""

from __future__ import annotations

import json
import os
import shutil
import stat
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.digests import sha256_file
from pytest_mlebench.sandbox.copy_budget import CopyBudget
from pytest_mlebench.sandbox.copy_out import MAX_ARTIFACT_BYTES
from pytest_mlebench.sandbox.interface import Sandbox
from pytest_mlebench.timestamps import utc_timestamp

CHECKPOINTS = "checkpoints"
SNAPSHOT_JSON = "snapshot.json"
FILES_JSON = "files.json"
DEFAULT_CAP_BYTES = 2 * 1024**3


@dataclass(frozen=True)
class SnapshotInfo:
    """What ``snapshot.json`` says of one snapshot.

    Attributes:
        number: The snapshot's number in its run (1, 2, ...).
        time_used: The agent's seconds used when it was taken (those of earlier attempts this
            run resumed from included).
        taken_at: When it was taken (UTC, ISO 8601); ``taken_at_epoch`` the same in seconds.
        seconds: How long taking it took.
        copied_bytes: Bytes read out of the sandbox for it.
        new_bytes: Bytes stored anew (files that differ from the previous snapshot).
        linked_bytes: Bytes of unchanged files, hard-linked to the previous snapshot.
        files: Files it holds.
        omitted: The first entries left behind, with why; ``omitted_count`` all of them.
        capped: Why it stopped at its cap (``None``: it did not).
    """

    number: int
    time_used: float
    taken_at: str
    taken_at_epoch: float
    seconds: float
    copied_bytes: int
    new_bytes: int
    linked_bytes: int
    files: int
    omitted: list[dict[str, Any]] = field(default_factory=list)
    omitted_count: int = 0
    capped: str | None = None

    @classmethod
    def read(cls, folder: Path) -> SnapshotInfo | None:
        """The info of the snapshot in ``folder``; ``None`` when it has none or it is broken."""
        try:
            data = json.loads((folder / SNAPSHOT_JSON).read_text("utf-8"))
            return cls(**data)
        except (OSError, ValueError, TypeError):
            return None


@dataclass(frozen=True)
class Snapshot:
    """A complete snapshot on the host: its folder and its info."""

    folder: Path
    info: SnapshotInfo


def snapshot_sources(sandbox: Sandbox, max_submission: int) -> list[tuple[str, str, int]]:
    """(name in the snapshot, path in the sandbox, per-file cap) of everything a snapshot takes."""
    paths = sandbox.paths
    sources = [
        ("submission.csv", paths.submission_file, max_submission),
        ("code", paths.code, MAX_ARTIFACT_BYTES),
        ("logs", paths.logs, MAX_ARTIFACT_BYTES),
        ("agent", paths.agent, MAX_ARTIFACT_BYTES),
    ]
    if paths.work:
        sources.append(("workspace", paths.work, MAX_ARTIFACT_BYTES))
    return sources


def take_snapshot(
    sandbox: Sandbox,
    run_dir: Path,
    number: int,
    time_used: float,
    *,
    cap_bytes: int = DEFAULT_CAP_BYTES,
    max_submission: int = MAX_ARTIFACT_BYTES,
    previous: Snapshot | None = None,
) -> Snapshot:
    """Copy the agent's files out of the live ``sandbox`` into ``run_dir/checkpoints/NNNN``.

    Raises whatever the sandbox's ``copy_out`` raises (the caller records it); a half-made
    snapshot stays a ``.partial`` folder, never taken for a whole one.
    """
    started = time.monotonic()
    root = run_dir / CHECKPOINTS
    final = root / f"{number:04d}"
    partial = root / f"{number:04d}.partial"
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    budget = CopyBudget(total_bytes=cap_bytes)
    for name, source, per_file in snapshot_sources(sandbox, max_submission):
        sandbox.copy_out(source, partial / name, max_file_bytes=per_file, budget=budget)
        if budget.stopped:
            break
    hashes, new_bytes, linked_bytes = link_unchanged(partial, previous)
    (partial / FILES_JSON).write_text(json.dumps(hashes), "utf-8")
    info = SnapshotInfo(
        number=number,
        time_used=round(time_used, 3),
        taken_at=utc_timestamp(),
        taken_at_epoch=time.time(),
        seconds=round(time.monotonic() - started, 3),
        copied_bytes=budget.written,
        new_bytes=new_bytes,
        linked_bytes=linked_bytes,
        files=len(hashes),
        omitted=list(budget.omitted),
        omitted_count=budget.omitted_count,
        capped=budget.capped,
    )
    (partial / SNAPSHOT_JSON).write_text(json.dumps(asdict(info), indent=2), "utf-8")
    os.replace(partial, final)
    return Snapshot(final, info)


def link_unchanged(
    folder: Path, previous: Snapshot | None
) -> tuple[dict[str, list[Any]], int, int]:
    """Hash every file of ``folder``; one that matches the same path of ``previous`` becomes a
    hard link to it. Returns ``{path: [size, sha256]}``, the new bytes and the linked bytes."""
    before = _hashes(previous.folder) if previous is not None else {}
    hashes: dict[str, list[Any]] = {}
    new_bytes = linked_bytes = 0
    own = {folder / SNAPSHOT_JSON, folder / FILES_JSON}
    for path in sorted(folder.rglob("*")):
        info = path.lstat()
        if not stat.S_ISREG(info.st_mode) or path in own:
            continue
        relative = path.relative_to(folder).as_posix()
        digest = sha256_file(path)
        hashes[relative] = [info.st_size, digest]
        unchanged = previous is not None and before.get(relative) == [info.st_size, digest]
        if unchanged and previous is not None and _link(previous.folder / relative, path):
            linked_bytes += info.st_size
            continue
        new_bytes += info.st_size
    return hashes, new_bytes, linked_bytes


def _hashes(folder: Path) -> dict[str, list[Any]]:
    try:
        loaded = json.loads((folder / FILES_JSON).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return loaded if isinstance(loaded, dict) else {}


def _link(existing: Path, path: Path) -> bool:
    """Replace ``path`` by a hard link to ``existing``; False where links cannot be made."""
    spare = path.with_name(path.name + ".link")
    try:
        os.link(existing, spare)
        os.replace(spare, path)
    except OSError:
        spare.unlink(missing_ok=True)
        return False
    return True


def snapshots_of(run_dir: Path) -> list[Snapshot]:
    """The run's complete snapshots, oldest first (``.partial`` folders are never complete)."""
    root = run_dir / CHECKPOINTS
    found = []
    for folder in sorted(root.glob("[0-9][0-9][0-9][0-9]")) if root.is_dir() else []:
        info = SnapshotInfo.read(folder)
        if info is not None:
            found.append(Snapshot(folder, info))
    return found


def latest_snapshot(run_dir: Path) -> Snapshot | None:
    """The run's last complete snapshot; ``None`` when it took none."""
    found = snapshots_of(run_dir)
    return found[-1] if found else None


def save_snapshot_log(run_dir: Path, entries: list[dict[str, Any]]) -> None:
    """``checkpoints/log.json``: every snapshot taken or failed, as the snapshotter saw it."""
    root = run_dir / CHECKPOINTS
    root.mkdir(parents=True, exist_ok=True)
    write_atomically(root / "log.json", json.dumps(entries, indent=2))
