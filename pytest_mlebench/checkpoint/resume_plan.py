"""``--mle-resume PATH``: the runs of a dead session to resume, one per (subject, seed).

``PATH`` is a results file or a summary (its folder's ``runs/``), a reports folder (its
``runs/``), a ``runs/`` folder, or one run folder. A run is to resume when its folder has a
``started.json`` and no ``record.json`` and it is the latest run of its (subject, seed) for the
agent: a run that a later one already resumed (or re-ran) is left alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from pytest_mlebench.checkpoint.marker import StartedRun, finished
from pytest_mlebench.checkpoint.resume import ResumePoint, resume_point
from pytest_mlebench.errors import SettingError

Pair = tuple[str, int]


@dataclass(frozen=True)
class ResumePlan:
    """The runs to resume, by (subject, seed), and where each resumes from."""

    source: Path
    points: dict[Pair, ResumePoint] = field(default_factory=dict)

    @property
    def pairs(self) -> frozenset[Pair]:
        return frozenset(self.points)

    def point_for(self, subject: str, seed: int) -> ResumePoint | None:
        return self.points.get((subject, seed))

    def header(self) -> str:
        """The session header's line: how many runs resume, and from what."""
        snapshots = sum(1 for point in self.points.values() if point.snapshot is not None)
        return (
            f"resume from {self.source}: {len(self.points)} unfinished run(s), "
            f"{snapshots} from a snapshot, {len(self.points) - snapshots} from scratch"
        )


def run_folders(path: Path) -> list[Path]:
    """The run folders ``path`` names (see the module docstring)."""
    if not path.is_dir():  # a results file or a summary: the runs beside it
        path = path.parent / "runs"
    elif (path / "started.json").is_file():
        return [path]
    elif (path / "runs").is_dir():
        path = path / "runs"
    if not path.is_dir():
        return []
    return sorted(folder for folder in path.iterdir() if (folder / "started.json").is_file())


def plan_resume(path: Path, agent: str, session_id: str = "") -> ResumePlan:
    """The runs of ``agent`` under ``path`` to resume (runs of ``session_id``, this session's
    own, are never among them).

    Raises:
        SettingError: ``path`` holds no started runs, or none of ``agent`` (naming those it has).
    """
    started = [
        (folder, marker)
        for folder in run_folders(path)
        if (marker := StartedRun.read(folder)) is not None and marker.session_id != session_id
    ]
    if not started:
        raise SettingError(
            f"--mle-resume {path}: no runs found there (a run leaves runs/<run-id>/started.json); "
            "give the results file, the reports folder, its runs/ folder or one run folder"
        )
    mine = [(folder, marker) for folder, marker in started if marker.agent == agent]
    if not mine:
        agents = ", ".join(sorted({marker.agent for _, marker in started}))
        raise SettingError(
            f"--mle-resume {path}: no runs of agent {agent!r} (it has: {agents}); pass the same "
            "--mle-agent as the session you resume"
        )
    return ResumePlan(path, _latest_unfinished(mine))


def _latest_unfinished(runs: Iterable[tuple[Path, StartedRun]]) -> dict[Pair, ResumePoint]:
    latest: dict[Pair, tuple[Path, StartedRun]] = {}
    for folder, marker in runs:
        pair = (marker.subject, marker.seed)
        if pair not in latest or marker.started_at >= latest[pair][1].started_at:
            latest[pair] = (folder, marker)
    return {
        pair: resume_point(folder)
        for pair, (folder, _) in sorted(latest.items())
        if not finished(folder)
    }
