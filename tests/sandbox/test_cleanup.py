"""No container outlives its run: Ctrl-C, SIGTERM, a killed worker (then the reaper), double stop.

These tests talk to a Docker engine and skip without one.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from tests.sandbox.conftest import TEST_SESSION, SandboxFactory, answer_ctrl_c, containers_with

ROOT = Path(__file__).resolve().parents[2]


def containers_of_run(run_id: str) -> list[str]:
    from pytest_mlebench.sandbox.docker import RUN_ID_LABEL

    return containers_with(RUN_ID_LABEL, run_id)


def start_driver(public: Path, run_id: str) -> subprocess.Popen[str]:
    driver = subprocess.Popen(
        [sys.executable, "-m", "tests.sandbox.interrupt_driver", str(public), run_id, TEST_SESSION],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
        preexec_fn=answer_ctrl_c,  # the SIGINT case, also when this suite runs in the background
    )
    assert driver.stdout is not None
    assert driver.stdout.readline().strip() == "READY"
    assert containers_of_run(run_id), "the driver's container should be running"
    return driver


@pytest.mark.usefixtures("docker_image")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_interrupted_run_leaves_no_container(
    competition_dirs: tuple[Path, Path], signum: signal.Signals
) -> None:
    run_id = f"interrupt-{uuid.uuid4().hex[:8]}"
    driver = start_driver(competition_dirs[0], run_id)
    try:
        driver.send_signal(signum)
        # The engine's stop and removal take seconds, minutes on a loaded machine.
        assert driver.wait(timeout=120) != 0
        assert containers_of_run(run_id) == []
    finally:  # a failure here must not leave its container to fail the session's check
        stop_driver_and_its_containers(driver, run_id)


def stop_driver_and_its_containers(driver: subprocess.Popen[str], run_id: str) -> None:
    from pytest_mlebench.sandbox.docker import RUN_ID_LABEL
    from pytest_mlebench.sandbox.docker.cleanup import list_containers, remove_container
    from pytest_mlebench.sandbox.docker.engine import docker_client

    if driver.poll() is None:
        driver.kill()
        driver.wait()
    client = docker_client()
    try:
        for container in list_containers(client, {"label": f"{RUN_ID_LABEL}={run_id}"}, all=True):
            remove_container(container, graceful=False)
    finally:
        client.close()


@pytest.mark.usefixtures("docker_image")
def test_reaper_removes_what_a_killed_worker_left(competition_dirs: tuple[Path, Path]) -> None:
    from pytest_mlebench.sandbox.docker import reap_containers

    run_id = f"killed-{uuid.uuid4().hex[:8]}"
    driver = start_driver(competition_dirs[0], run_id)
    os.kill(driver.pid, signal.SIGKILL)
    driver.wait(timeout=30)
    assert containers_of_run(run_id), "SIGKILL leaves the container behind"
    # Not ``removed >= 1``: another session's reaper on the same engine may have been first.
    reap_containers(older_than_session=TEST_SESSION)
    assert containers_of_run(run_id) == []


def test_reaper_spares_containers_of_live_processes(
    docker_sandbox_factory: SandboxFactory,
) -> None:
    from pytest_mlebench.sandbox.docker import reap_containers

    sandbox = docker_sandbox_factory()
    reap_containers(older_than_session=None)
    assert containers_of_run(sandbox.spec.run_id)
    assert sandbox.exec(["true"]).exit_code == 0


def test_stopped_sandbox_leaves_no_container(docker_sandbox_factory: SandboxFactory) -> None:
    sandbox = docker_sandbox_factory()
    run_id = sandbox.spec.run_id
    assert containers_of_run(run_id)
    started = time.monotonic()
    sandbox.stop()
    sandbox.stop()
    assert containers_of_run(run_id) == []
    assert time.monotonic() - started < 15


INTERRUPTED_TEST = """
import time
from pathlib import Path

from pytest_mlebench.sandbox.interface import Limits, SandboxSpec
from pytest_mlebench.sandbox.docker import DockerSandbox


def test_long_agent_run():
    spec = SandboxSpec(
        run_id={run_id!r}, subject="interrupted", seed=0, public_dir=Path({public!r}),
        limits=Limits(3600), labels={{"pytest-mlebench.session": {session!r}}},
    )
    with DockerSandbox(spec) as sandbox:
        Path({ready!r}).write_text("running")
        sandbox.exec(["sleep", "3600"], timeout=3600)
"""


@pytest.mark.usefixtures("docker_image")
@pytest.mark.parametrize("xdist", [[], ["-n", "1"]], ids=["plain", "xdist"])
def test_ctrl_c_during_a_pytest_run_leaves_no_container(
    competition_dirs: tuple[Path, Path], tmp_path: Path, xdist: list[str]
) -> None:
    run_id = f"ctrl-c-{uuid.uuid4().hex[:8]}"
    ready = tmp_path / "ready"
    test_file = tmp_path / "test_interrupted.py"
    test_file.write_text(
        INTERRUPTED_TEST.format(
            run_id=run_id, public=str(competition_dirs[0]), session=TEST_SESSION, ready=str(ready)
        )
    )
    command = [sys.executable, "-m", "pytest", str(test_file), "-p", "no:cacheprovider", *xdist]
    # Its own process group, signalled as a whole: what Ctrl-C in a terminal does.
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.Popen(
        command,
        cwd=tmp_path,
        env=env,
        start_new_session=True,
        preexec_fn=answer_ctrl_c,
        stdout=subprocess.PIPE,
    )
    give_up = time.monotonic() + 120
    while not ready.exists():
        assert run.poll() is None and time.monotonic() < give_up, "the run never started"
        time.sleep(0.1)
    time.sleep(0.5)
    os.killpg(run.pid, signal.SIGINT)
    output, _ = run.communicate(timeout=60)
    assert run.returncode != 0, output.decode(errors="replace")[-2000:]
    assert containers_of_run(run_id) == []
