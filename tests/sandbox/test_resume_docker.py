"""A Docker session killed mid-run (``kill -9`` of the controller, Ctrl-C) resumes from its last
snapshot in a fresh container, with the time it had left, and ends graded.

The real plugin in pytest subprocesses (:mod:`tests.checkpoint.session_driver`), with the
``resumer`` test agent; the checks on what the resumed agent found are those of the local test.
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
from tests.sandbox.conftest import containers_with

pytestmark = pytest.mark.usefixtures("docker_image")


def remove_containers_of(run_id: str) -> list[str]:
    """Remove what a killed controller left of ``run_id``; the names it found."""
    from pytest_mlebench.sandbox.docker import RUN_ID_LABEL
    from pytest_mlebench.sandbox.docker.cleanup import list_containers, remove_container
    from pytest_mlebench.sandbox.docker.engine import docker_client

    client = docker_client()
    try:
        found = list_containers(client, {"label": f"{RUN_ID_LABEL}={run_id}"}, all=True)
        for container in found:
            remove_container(container, graceful=False)
        return [container.name for container in found]
    finally:
        client.close()


@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGINT], ids=["kill-9", "ctrl-c"])
def test_a_killed_docker_session_resumes_from_its_last_snapshot(
    tmp_path: Path, signum: int
) -> None:
    from pytest_mlebench.sandbox.docker import RUN_ID_LABEL

    session = start_session(tmp_path, "docker")
    try:
        wait_for_snapshot(tmp_path, session, 2)
    finally:
        stop_session(session, signum)
    dead = run_folder(tmp_path)
    if signum == signal.SIGINT:  # Ctrl-C: the sandbox is gone, the snapshots stay
        assert containers_with(RUN_ID_LABEL, dead.name) == []
    remove_containers_of(dead.name)  # kill -9: what the session's reaper would take later
    started = json.loads((dead / "started.json").read_text())
    assert not (dead / "record.json").exists()
    assert (started["interrupted_at"] is not None) == (signum == signal.SIGINT)

    done, records = resume_session(tmp_path, "docker")

    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    [record] = records
    resumed = record["resumed"]
    snapshot = Path(resumed["snapshot"])
    info = json.loads((snapshot / "snapshot.json").read_text())
    assert record["sandbox"] == "docker" and record["isolated"] is True
    assert resumed["run_id"] == dead.name and snapshot.parent.parent == dead
    assert resumed["remaining_seconds"] == record["time_limit"] < TIME_LIMIT
    assert record["grade"]["valid_submission"] is True
    told = dict(
        line.split("=", 1)
        for line in (Path(record["run_dir"]) / "logs" / "resumed.txt").read_text().splitlines()
    )
    assert int(told["steps"]) == len((snapshot / "code" / "steps.txt").read_text().splitlines())
    assert int(told["time_limit"]) == resumed["remaining_seconds"]
    assert told["told"] == "yes" and int(told["used"]) == round(info["time_used"])
    assert containers_with(RUN_ID_LABEL, record["run_id"]) == []
