"""A session killed mid-run (``kill -9``, Ctrl-C) resumes from its last snapshot, local backend.

The real plugin in pytest subprocesses (:mod:`.session_driver`): the run snapshots every second,
its session is killed after its second snapshot, and ``--mle-resume`` runs it again from the
snapshot, with the time it had left, told that it resumes; the new record says so.
"""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from tests.checkpoint.session_driver import (
    TIME_LIMIT,
    resume_session,
    run_folder,
    start_session,
    stop_session,
    wait_for_snapshot,
)


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGINT], ids=["kill-9", "ctrl-c"])
def test_a_killed_session_resumes_from_its_last_snapshot(tmp_path: Path, signum: int) -> None:
    session = start_session(tmp_path, "local")
    wait_for_snapshot(tmp_path, session, 2)
    stop_session(session, signum)
    dead = run_folder(tmp_path)
    started = json.loads((dead / "started.json").read_text())
    assert not (dead / "record.json").exists()
    assert (started["interrupted_at"] is not None) == (signum == signal.SIGINT)

    done, records = resume_session(tmp_path, "local")

    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "resume from" in done.stdout and "1 unfinished run(s), 1 from a snapshot" in done.stdout
    [record] = records
    resumed = record["resumed"]
    snapshot = Path(resumed["snapshot"])
    info = json.loads((snapshot / "snapshot.json").read_text())
    assert resumed["run_id"] == dead.name and snapshot.parent.parent == dead
    assert resumed["time_used_at_snapshot"] == info["time_used"] > 0
    assert resumed["remaining_seconds"] == record["time_limit"] < TIME_LIMIT
    assert resumed["time_lost_seconds"] is not None and resumed["time_lost_seconds"] >= 0
    assert record["grade"]["valid_submission"] is True
    told = dict(
        line.split("=", 1)
        for line in (Path(record["run_dir"]) / "logs" / "resumed.txt").read_text().splitlines()
    )
    steps_at_snapshot = len((snapshot / "code" / "steps.txt").read_text().splitlines())
    assert int(told["steps"]) == steps_at_snapshot > 0
    assert int(told["time_limit"]) == resumed["remaining_seconds"]
    assert told["told"] == "yes" and int(told["used"]) == round(info["time_used"])


def test_a_run_without_snapshots_starts_over_with_the_full_time_and_says_so(
    tmp_path: Path,
) -> None:
    session = start_session(tmp_path, "local", every="off")
    wait_for_snapshot(tmp_path, session, 0)
    stop_session(session, signal.SIGKILL)

    done, records = resume_session(tmp_path, "local")

    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    assert "0 from a snapshot, 1 from scratch" in done.stdout
    [record] = records
    assert record["resumed"]["from_scratch"] is True and record["resumed"]["snapshot"] is None
    assert record["resumed"]["remaining_seconds"] == record["time_limit"] == TIME_LIMIT
    told = (Path(record["run_dir"]) / "logs" / "resumed.txt").read_text()
    assert "resumed=0" in told and f"time_limit={TIME_LIMIT}" in told and "told=no" in told


def test_bad_checkpoint_options_are_usage_errors_that_name_the_fix(tmp_path: Path) -> None:
    import subprocess

    from tests.checkpoint.session_driver import session_command

    (tmp_path / "empty").mkdir()
    (tmp_path / "defs").mkdir()
    for option, expected in [
        ("--mle-checkpoint-every=soon", "expected a duration like 30m, 10s or 2h"),
        (f"--mle-resume={tmp_path / 'missing'}", "no such file or folder"),
        (f"--mle-resume={tmp_path / 'empty'}", "no runs found there"),
    ]:
        done = subprocess.run(
            session_command(tmp_path, "local", option),
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 4, done.stdout + done.stderr
        assert expected in done.stderr and "Traceback" not in done.stderr
