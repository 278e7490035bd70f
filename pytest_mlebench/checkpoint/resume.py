"""Where a run resumes from, and what the resumed agent is told.

:func:`resume_point` answers for one run folder: its last complete snapshot (or, for a resumed run
that died before its first, the snapshot it had resumed from; else none: from scratch, with the
full time). A :class:`ResumePoint` gives the remaining seconds, the environment and the line of
instructions that tell the agent it resumes, and the record's ``resumed`` entry;
:func:`restore_snapshot` copies a snapshot into a fresh, started sandbox before the agent starts.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.checkpoint.marker import StartedRun
from pytest_mlebench.checkpoint.snapshot import Snapshot, SnapshotInfo, latest_snapshot
from pytest_mlebench.sandbox.interface import Sandbox

RESUMED_ENV = "MLEBENCH_RESUMED"
AGE_ENV = "MLEBENCH_SNAPSHOT_AGE_SECONDS"
USED_ENV = "MLEBENCH_TIME_USED_SECONDS"
# The snapshot's names and where each goes back in a fresh sandbox (``ContractPaths`` fields).
RESTORED = (
    ("submission.csv", "submission_file"),
    ("code", "code"),
    ("logs", "logs"),
    ("agent", "agent"),
    ("workspace", "work"),
)


@dataclass(frozen=True)
class ResumePoint:
    """A run to resume: which one, from which snapshot, with how much of its time used.

    Attributes:
        run_id: The run that died.
        time_limit: The agent's full seconds.
        snapshot: The snapshot's folder (``None``: none was taken; the run starts over).
        snapshot_number: Its number in the run that took it.
        time_used: The agent's seconds used at the snapshot (0 without one).
        taken_at_epoch: When the snapshot was taken (seconds since the epoch).
        last_alive_epoch: The last sign of life of the run that died (Ctrl-C's mark, else the
            newest file of its folder): the time after the snapshot that is done again.
    """

    run_id: str
    time_limit: float
    snapshot: Path | None = None
    snapshot_number: int | None = None
    time_used: float = 0.0
    taken_at_epoch: float | None = None
    last_alive_epoch: float | None = None

    @property
    def remaining(self) -> int:
        """The seconds the resumed agent gets: the time limit less the time used (at least 1)."""
        return max(1, math.ceil(self.time_limit - self.time_used))

    def age(self, now: float | None = None) -> float:
        """Seconds since the snapshot was taken (0 without one)."""
        if self.taken_at_epoch is None:
            return 0.0
        return max(0.0, (now if now is not None else time.time()) - self.taken_at_epoch)

    @property
    def time_lost(self) -> float | None:
        """Seconds of agent time after the snapshot, done again (``None``: unknown)."""
        if self.last_alive_epoch is None:
            return None
        since = self.taken_at_epoch
        if since is None:  # from scratch: everything the run did is lost
            return None
        return round(max(0.0, self.last_alive_epoch - since), 3)

    def env(self, now: float | None = None) -> dict[str, str]:
        """What the resumed sandbox's environment says."""
        return {
            RESUMED_ENV: "1" if self.snapshot is not None else "0",
            AGE_ENV: str(round(self.age(now))),
            USED_ENV: str(round(self.time_used)),
        }

    def note(self, now: float | None = None) -> str:
        """The line of instructions that tells the agent it resumes."""
        if self.snapshot is None:
            return (
                "\n\nThis run restarts an earlier attempt that was interrupted before any "
                "snapshot was taken: you start from scratch with the full time.\n"
            )
        return (
            f"\n\nThis run resumes an interrupted attempt: its submission, code/, logs/ and "
            f"working folders were restored as they were {round(self.age(now))} seconds ago, "
            f"after {round(self.time_used)} seconds of agent time. You have "
            f"{self.remaining} seconds left. Continue from what is there "
            f"(${RESUMED_ENV}=1).\n"
        )

    def entry(self) -> dict[str, Any]:
        """The record's ``resumed``."""
        return {
            "run_id": self.run_id,
            "snapshot": str(self.snapshot) if self.snapshot is not None else None,
            "snapshot_number": self.snapshot_number,
            "from_scratch": self.snapshot is None,
            "time_limit": self.time_limit,
            "time_used_at_snapshot": round(self.time_used, 3),
            "time_lost_seconds": self.time_lost,
            "remaining_seconds": self.remaining,
        }


def resume_point(run_dir: Path, time_limit: float | None = None) -> ResumePoint:
    """How the run in ``run_dir`` resumes: from its last snapshot, else from the snapshot it had
    itself resumed from, else from scratch. ``time_limit``: the full limit where the folder has
    no marker (a retry in the same session)."""
    started = StartedRun.read(run_dir)
    limit = started.time_limit if started is not None else float(time_limit or 0)
    alive = _last_alive(run_dir, started)
    run_id = started.run_id if started is not None else run_dir.name
    snapshot = latest_snapshot(run_dir)
    if snapshot is not None:
        return point_from(snapshot, run_id, limit, alive)
    earlier = _earlier_snapshot(started)
    if earlier is not None and started is not None and started.resumed_from is not None:
        return point_from(earlier, str(started.resumed_from["run_id"]), limit, alive)
    return ResumePoint(run_id=run_id, time_limit=limit, last_alive_epoch=alive)


def point_from(
    snapshot: Snapshot, run_id: str, time_limit: float, alive: float | None = None
) -> ResumePoint:
    """The point that resumes run ``run_id`` from ``snapshot``."""
    return ResumePoint(
        run_id=run_id,
        time_limit=time_limit,
        snapshot=snapshot.folder,
        snapshot_number=snapshot.info.number,
        time_used=snapshot.info.time_used,
        taken_at_epoch=snapshot.info.taken_at_epoch,
        last_alive_epoch=alive,
    )


def _earlier_snapshot(started: StartedRun | None) -> Snapshot | None:
    if started is None or not started.resumed_from or not started.resumed_from.get("snapshot"):
        return None
    folder = Path(started.resumed_from["snapshot"])
    info = SnapshotInfo.read(folder)
    return Snapshot(folder, info) if info is not None else None


def _last_alive(run_dir: Path, started: StartedRun | None) -> float | None:
    """Ctrl-C's mark, else the newest modification in the run folder (its agent log grows while
    the agent runs)."""
    if started is not None and started.interrupted_epoch is not None:
        return started.interrupted_epoch
    times = []
    for path in (run_dir, *run_dir.iterdir()) if run_dir.is_dir() else ():
        try:
            times.append(path.stat().st_mtime)
        except OSError:
            continue
    return max(times) if times else None


def restore_snapshot(sandbox: Sandbox, snapshot: Path) -> list[str]:
    """Copy ``snapshot``'s files into the started ``sandbox`` (the agent's user owns them);
    the names restored."""
    restored = []
    for name, field_name in RESTORED:
        source = snapshot / name
        target = getattr(sandbox.paths, field_name)
        if target and source.exists():
            sandbox.copy_in(source, target)
            restored.append(name)
    return restored
