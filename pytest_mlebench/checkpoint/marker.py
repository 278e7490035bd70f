"""The run's "started" marker: ``run_dir/started.json``, written before the sandbox starts.

A run that ends writes ``record.json`` beside it; a folder with a marker and no record is a run
whose session died (Ctrl-C, ``kill -9`` of the controller, a reboot, a lost node), which
``--mle-resume`` finds. The marker names the run (subject, seed, agent, the full time limit, the
session) and, for a run that itself resumed another, where it resumed from, so a resumed run that
dies before its own first snapshot resumes from the same place. Ctrl-C marks it interrupted.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.timestamps import utc_timestamp

MARKER = "started.json"
RECORD = "record.json"


@dataclass(frozen=True)
class StartedRun:
    """What ``started.json`` holds.

    Attributes:
        run_id: The run's id (its folder's name).
        session_id: The session that started it.
        test_id: Its test's node id.
        kind: ``competition`` or ``engineering``.
        subject: The competition's or task's id; ``seed`` its seed.
        agent: The agent's name, as records carry it.
        time_limit: The agent's full seconds (before any resume took some).
        started_at: When it started (UTC, ISO 8601).
        resumed_from: Where it resumed from (the record's ``resumed``: run id, snapshot folder,
            agent time at the snapshot); ``None``: a first attempt.
        interrupted_at: When Ctrl-C stopped it (``None``: not interrupted, or killed outright).
    """

    run_id: str
    session_id: str
    test_id: str
    kind: str
    subject: str
    seed: int
    agent: str
    time_limit: float
    started_at: str
    resumed_from: dict[str, Any] | None = None
    interrupted_at: str | None = None
    interrupted_epoch: float | None = None

    def write(self, run_dir: Path) -> None:
        write_atomically(run_dir / MARKER, json.dumps(asdict(self), indent=2))

    @classmethod
    def read(cls, run_dir: Path) -> StartedRun | None:
        """The marker of ``run_dir``; ``None`` when there is none or it cannot be read."""
        try:
            data = json.loads((run_dir / MARKER).read_text("utf-8"))
            return cls(**data)
        except (OSError, ValueError, TypeError):
            return None


def mark_interrupted(run_dir: Path) -> None:
    """Say in the marker that Ctrl-C stopped the run (snapshots stay where they are)."""
    started = StartedRun.read(run_dir)
    if started is not None:
        replace(started, interrupted_at=utc_timestamp(), interrupted_epoch=time.time()).write(
            run_dir
        )


def finished(run_dir: Path) -> bool:
    """Whether the run in ``run_dir`` wrote its record."""
    return (run_dir / RECORD).is_file()
