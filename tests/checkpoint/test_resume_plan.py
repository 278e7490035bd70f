"""Which runs ``--mle-resume`` resumes, from where, with what time; the checkpoint options' values.

Run folders are written by hand here (a marker, a record, a snapshot's JSON): the plan reads
nothing else.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import pytest

from pytest_mlebench.checkpoint.marker import StartedRun, mark_interrupted
from pytest_mlebench.checkpoint.resume import ResumePoint, resume_point
from pytest_mlebench.checkpoint.resume_plan import plan_resume, run_folders
from pytest_mlebench.errors import SettingError
from pytest_mlebench.values.checkpoint_every import interval_for, parse_cap, parse_every


def started(runs: Path, run_id: str, **fields: object) -> Path:
    folder = runs / run_id
    folder.mkdir(parents=True)
    values: dict[str, object] = {
        "run_id": run_id,
        "session_id": "dead",
        "test_id": "t",
        "kind": "competition",
        "subject": "toy",
        "seed": 0,
        "agent": "resumer",
        "time_limit": 100.0,
        "started_at": "2026-12-08T01:00:00+00:00",
        **fields,
    }
    StartedRun(**values).write(folder)  # type: ignore[arg-type]
    return folder


def snapshot(folder: Path, number: int, time_used: float, taken_at: float = 1000.0) -> Path:
    where = folder / "checkpoints" / f"{number:04d}"
    where.mkdir(parents=True)
    info = {
        "number": number,
        "time_used": time_used,
        "taken_at": "then",
        "taken_at_epoch": taken_at,
        "seconds": 0.1,
        "copied_bytes": 1,
        "new_bytes": 1,
        "linked_bytes": 0,
        "files": 1,
    }
    (where / "snapshot.json").write_text(json.dumps(info))
    return where


@pytest.mark.parametrize(
    ("spelled", "seconds"),
    [("30m", 1800.0), ("10s", 10.0), ("2h", 7200.0), ("90", 90.0), ("0", None), ("off", None)],
)
def test_durations(spelled: str, seconds: float | None) -> None:
    assert parse_every(spelled) == seconds


@pytest.mark.parametrize("bad", ["soon", "-5m", "10 minutes", "1d"])
def test_a_bad_duration_names_the_forms(bad: str) -> None:
    with pytest.raises(ValueError, match="like 30m, 10s or 2h"):
        parse_every(bad)


def test_a_run_not_longer_than_the_interval_takes_no_snapshot() -> None:
    assert interval_for(1800.0, 600) is None
    assert interval_for(1800.0, 1800) is None
    assert interval_for(1800.0, 86400) == 1800.0
    assert interval_for(None, 86400) is None
    assert parse_cap("500m") == 500 * 1024**2
    with pytest.raises(ValueError, match="like 2g"):
        parse_cap("0")


def test_only_unfinished_latest_runs_of_the_agent_are_resumed(tmp_path: Path) -> None:
    runs = tmp_path / "reports" / "runs"
    finished = started(runs, "toy-s0-a", started_at="2026-12-08T01:00:00+00:00")
    (finished / "record.json").write_text("{}")
    dead = started(runs, "toy-s0-b", started_at="2026-12-08T02:00:00+00:00")
    snapshot(dead, 1, 10.0)
    snapshot(dead, 2, 30.0)
    superseded = started(runs, "toy-s1-a", seed=1, started_at="2026-12-08T01:00:00+00:00")
    again = started(runs, "toy-s1-b", seed=1, started_at="2026-12-08T03:00:00+00:00")
    (again / "record.json").write_text("{}")
    started(runs, "toy-s2-a", seed=2, agent="other")
    started(runs, "toy-s3-a", seed=3, session_id="this-session")

    plan = plan_resume(tmp_path / "reports" / "results.jsonl", "resumer", "this-session")

    assert superseded.name not in {p.run_id for p in plan.points.values()}
    assert plan.pairs == {("toy", 0)}
    point = plan.point_for("toy", 0)
    assert point is not None and point.run_id == "toy-s0-b" and point.snapshot_number == 2
    assert point.time_used == 30.0 and point.remaining == 70
    assert plan.header().endswith("1 unfinished run(s), 1 from a snapshot, 0 from scratch")
    assert run_folders(dead) == [dead] and len(run_folders(runs)) == 6


def test_a_path_without_runs_or_without_the_agents_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(SettingError, match="no runs found there"):
        plan_resume(tmp_path, "resumer")
    started(tmp_path / "runs", "toy-s0-a", agent="aide:gpt-4o")
    with pytest.raises(SettingError, match=r"no runs of agent 'resumer' \(it has: aide:gpt-4o\)"):
        plan_resume(tmp_path, "resumer")


def test_a_run_without_snapshots_starts_over_with_the_full_time(tmp_path: Path) -> None:
    dead = started(tmp_path, "toy-s0-a")
    point = resume_point(dead)
    assert point.snapshot is None and point.remaining == 100 and point.time_used == 0
    assert point.env()["MLEBENCH_RESUMED"] == "0"
    assert "from scratch with the full time" in point.note()
    assert point.entry()["from_scratch"] is True


def test_a_resumed_run_that_died_before_its_own_snapshot_resumes_from_the_same_one(
    tmp_path: Path,
) -> None:
    first = started(tmp_path, "toy-s0-a")
    where = snapshot(first, 3, 40.0)
    earlier = resume_point(first)
    second = started(tmp_path, "toy-s0-b", resumed_from=earlier.entry())

    point = resume_point(second)

    assert point.snapshot == where and point.run_id == "toy-s0-a" and point.remaining == 60


def test_the_time_lost_runs_from_the_snapshot_to_the_interrupt(tmp_path: Path) -> None:
    dead = started(tmp_path, "toy-s0-a")
    snapshot(dead, 1, 25.0, taken_at=1000.0)
    mark_interrupted(dead)
    marker = StartedRun.read(dead)
    assert marker is not None and marker.interrupted_epoch is not None
    point = resume_point(dead)
    assert point.time_lost == round(marker.interrupted_epoch - 1000.0, 3)
    env = point.env(now=1090.0)
    assert env == {
        "MLEBENCH_RESUMED": "1",
        "MLEBENCH_SNAPSHOT_AGE_SECONDS": "90",
        "MLEBENCH_TIME_USED_SECONDS": "25",
    }
    assert "You have 75 seconds left" in point.note(now=1090.0)
    assert asdict(ResumePoint("r", 10.0, time_used=50.0))["time_used"] == 50.0
    assert ResumePoint("r", 10.0, time_used=50.0).remaining == 1  # never zero seconds
