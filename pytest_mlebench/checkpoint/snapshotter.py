"""The thread beside the agent that snapshots its sandbox every interval.

:class:`Snapshotter` is a context manager around the agent's run: it starts a daemon thread that
wakes every ``interval`` seconds and takes a snapshot (:func:`~.snapshot.take_snapshot`), hands
each to ``publish`` (a Ray node sends it to the controller), and on exit stops the thread and
waits for a snapshot in progress to end (a few seconds only when the agent's run raised, Ctrl-C
say: a snapshot cut off there stays ``.partial``, never taken for a whole one). A snapshot that
fails is recorded in ``checkpoints/log.json`` and the run goes on: snapshots never break a run.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.checkpoint.snapshot import (
    DEFAULT_CAP_BYTES,
    Snapshot,
    latest_snapshot,
    save_snapshot_log,
    take_snapshot,
)
from pytest_mlebench.sandbox.beside_agent import BesideAgent
from pytest_mlebench.sandbox.interface import Sandbox

log = logging.getLogger(__name__)

Publish = Callable[[Snapshot], None]
STOP_WAIT_SECONDS = 600.0  # a snapshot in progress when the agent ends: its copy is bounded
INTERRUPT_WAIT_SECONDS = 5.0  # Ctrl-C does not wait for it: the last whole snapshot stays


@dataclass(frozen=True)
class CheckpointPlan:
    """How a run snapshots itself, in plain values (it travels to a Ray node with the job).

    Attributes:
        interval: Seconds between snapshots.
        cap_bytes: The most one snapshot copies out of the sandbox.
        time_used_before: The agent's seconds used by the attempts this run resumes from.
        numbered_after: The last snapshot number the run took before this attempt (a Ray
            retry on another node goes on from the controller's last).
    """

    interval: float
    cap_bytes: int = DEFAULT_CAP_BYTES
    time_used_before: float = 0.0
    numbered_after: int = 0


class Snapshotter(BesideAgent):
    """Snapshots ``sandbox`` into ``run_dir`` every ``plan.interval`` while the body runs."""

    thread_name = "mlebench-snapshots"

    def __init__(
        self,
        sandbox: Sandbox,
        run_dir: Path,
        plan: CheckpointPlan,
        *,
        max_submission: int,
        publish: Publish | None = None,
    ) -> None:
        super().__init__(plan.interval, plan.time_used_before)
        self.sandbox = sandbox
        self.run_dir = run_dir
        self.plan = plan
        self.max_submission = max_submission
        self.publish = publish
        self.entries: list[dict[str, Any]] = []
        self._previous = latest_snapshot(run_dir)

    def tick(self) -> None:
        self.snapshot_now()

    def stop_wait(self, *, interrupted: bool) -> float:
        return INTERRUPT_WAIT_SECONDS if interrupted else STOP_WAIT_SECONDS

    def snapshot_now(self) -> Snapshot | None:
        """Take one snapshot now; ``None`` (and an entry in the log) when it failed."""
        number = max(self._previous.info.number if self._previous else 0, self.plan.numbered_after)
        number += 1
        try:
            snapshot = take_snapshot(
                self.sandbox,
                self.run_dir,
                number,
                self.time_used(),
                cap_bytes=self.plan.cap_bytes,
                max_submission=self.max_submission,
                previous=self._previous,
            )
        except Exception as exc:  # a failed snapshot is recorded; the run goes on
            log.warning("snapshot %d of %s failed: %s", number, self.run_dir.name, exc)
            self._log({"number": number, "error": f"{type(exc).__name__}: {exc}"})
            return None
        self._previous = snapshot
        info = snapshot.info
        self._log(
            {
                "number": number,
                "time_used": info.time_used,
                "taken_at": info.taken_at,
                "seconds": info.seconds,
                "copied_bytes": info.copied_bytes,
                "new_bytes": info.new_bytes,
                "capped": info.capped,
            }
        )
        if self.publish is not None:
            try:
                self.publish(snapshot)
            except Exception as exc:
                log.warning("snapshot %d of %s not published: %s", number, self.run_dir.name, exc)
                self._log({"number": number, "error": f"not published: {exc}"})
        return snapshot

    def _log(self, entry: dict[str, Any]) -> None:
        self.entries.append(entry)
        try:
            save_snapshot_log(self.run_dir, self.entries)
        except OSError as exc:
            log.warning("the snapshot log of %s could not be written: %s", self.run_dir.name, exc)
