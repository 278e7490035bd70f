"""No sandbox outlives its run, whatever dies: the container's own expiry and the local backend's
death with the harness.

The end-to-end checks run the plugin in a pytest subprocess (its own process group, as a
terminal's job), ``kill -9`` the whole group while the agent sleeps, and watch what is left.
Docker checks skip without an engine (``docker_image``).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest

from pytest_mlebench.errors import SandboxError
from pytest_mlebench.integrity.processes import is_harness_command
from pytest_mlebench.sandbox.docker.engine import engine_is_remote
from pytest_mlebench.sandbox.docker.expiry import (
    KEEPER_SCRIPT,
    RENEW_SCRIPT,
    Lease,
    keeper_command,
    lease_seconds,
    renew_lease,
)
from pytest_mlebench.sandbox.namespaces import namespaces_unavailable
from tests.factories import bench_command, write_competition
from tests.sandbox.conftest import TEST_SESSION, SandboxFactory, containers_with

ROOT = Path(__file__).resolve().parents[2]
TIME_LIMIT = 6
GRACE = 3
# Slack for a loaded machine: the engine's auto-remove and the test's own polling.
SLACK_SECONDS = 15


# -- the expiry computation ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("step", "grace", "expected"),
    [(6, 3, 9), (0, 300, 300), (0.2, 0.5, 1), (3600, 300, 3900), (0, 0.1, 1)],
)
def test_lease_covers_the_step_and_the_grace(step: float, grace: float, expected: int) -> None:
    assert lease_seconds(step, grace) == expected


@pytest.mark.parametrize(
    ("now", "step", "renew"),
    [
        (0.0, 0.0, False),  # fresh lease, a copy: plenty left
        (95.0, 0.0, False),  # 5 s left after a copy, grace/2 = 5: just enough
        (95.5, 0.0, True),  # less than half the grace would be left
        (10.0, 80.0, False),  # a command of 80 s still ends 10 s before the lease
        (10.0, 90.0, True),  # a command of 90 s would leave nothing
    ],
)
def test_lease_is_renewed_only_when_half_the_grace_would_not_be_left(
    now: float, step: float, renew: bool
) -> None:
    lease = Lease(grace=10.0)
    lease.started(100, now=0.0)
    assert lease.needs_renewal(step, now) is renew


def test_a_forgotten_lease_is_renewed_before_the_next_step() -> None:
    lease = Lease(grace=10.0)
    lease.started(1000, now=0.0)
    lease.forget()
    assert lease.needs_renewal(0.0, now=1.0)


def test_the_keeper_and_its_renewals_are_left_out_of_the_process_audit() -> None:
    assert is_harness_command(" ".join(keeper_command(9)))
    assert is_harness_command(f"sh -c {RENEW_SCRIPT} mlebench-lease 9")
    assert is_harness_command("sleep 9s")
    assert not is_harness_command("sleep 9")
    assert not is_harness_command("python3 train.py --sleep 9s")
    assert KEEPER_SCRIPT.count("sleep") == 1


# -- a real container ---------------------------------------------------------------------------


def test_an_abandoned_container_stops_by_itself_and_keeps_its_files(
    docker_sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    from pytest_mlebench.sandbox.docker import RUN_ID_LABEL

    sandbox = docker_sandbox_factory(time_limit=2, expiry_grace=2)
    paths = sandbox.paths
    sandbox.exec(["sh", "-c", f"echo kept > {paths.submission_file}"], timeout=1)
    run_id = sandbox.spec.run_id
    assert running_containers(RUN_ID_LABEL, run_id)
    assert wait_until_stopped(RUN_ID_LABEL, run_id, within=4 + SLACK_SECONDS)
    # A harness that was only stalled still gets the submission out of the stopped container.
    assert sandbox.copy_out(paths.submission_file, tmp_path / "submission.csv")
    assert (tmp_path / "submission.csv").read_text() == "kept\n"
    with pytest.raises(SandboxError, match="stopped itself at its deadline plus the grace"):
        sandbox.exec(["true"], timeout=1)
    sandbox.stop()
    assert containers_with(RUN_ID_LABEL, run_id) == []


def test_the_harness_copies_out_after_the_deadline(
    docker_sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = docker_sandbox_factory(time_limit=2, expiry_grace=4)
    paths = sandbox.paths
    started = time.monotonic()
    command = f"echo late > {paths.submission_file}; sleep 30"
    assert sandbox.exec(["sh", "-c", command], timeout=2).timed_out
    # Steps less than half the grace apart, well past the first lease (2 + 4 s): the renewals
    # before each copy keep the container.
    while time.monotonic() - started < 9:
        time.sleep(1.5)
        assert sandbox.copy_out(paths.submission_file, tmp_path / "submission.csv")
    assert (tmp_path / "submission.csv").read_text() == "late\n"
    assert sandbox.exec(["true"], timeout=1).exit_code == 0


def test_renewals_in_quick_succession_are_never_lost(
    docker_sandbox_factory: SandboxFactory,
) -> None:
    from pytest_mlebench.sandbox.docker import RUN_ID_LABEL

    sandbox = docker_sandbox_factory(time_limit=1, expiry_grace=3)
    container, lease = sandbox.container, sandbox.lease
    started = time.monotonic()
    while time.monotonic() - started < 6:  # well past the first lease (1 + 3 s)
        lease.forget()
        renew_lease(container, lease, 0.0)
    assert running_containers(RUN_ID_LABEL, sandbox.spec.run_id)
    assert wait_until_stopped(RUN_ID_LABEL, sandbox.spec.run_id, within=3 + SLACK_SECONDS)


# -- a killed controller ------------------------------------------------------------------------


def start_killable_run(
    tmp_path: Path, backend: str, competition: str, sleep_token: str, *options: str
) -> subprocess.Popen[bytes]:
    """A benchmark run of a sleeping agent, in its own process group; returns once it sleeps
    (once its ``sleep`` runs: the local backend writes ``agent.log`` at the end)."""
    write_competition(tmp_path / "defs", competition, splits={"expiry": [competition]})
    agent = tmp_path / "sleeper"
    agent.mkdir()
    (agent / "config.yaml").write_text("sleeper:\n  start: start.sh\n")
    (agent / "start.sh").write_text(f"sleep {sleep_token}\n")
    command = bench_command(
        tmp_path,
        *("-m", "expiry", "--mle-sandbox", backend, "--mle-agent", str(agent)),
        *("--mle-competitions-dir", str(tmp_path / "defs")),
        *("--mle-data-dir", str(tmp_path / "data")),
        *("--mle-results", str(tmp_path / "results.jsonl")),
        *(f"--mle-time-limit={TIME_LIMIT}", f"--mle-sandbox-grace={GRACE}"),
        *options,
    )
    run = subprocess.Popen(
        command,
        cwd=tmp_path,
        start_new_session=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"},
    )
    give_up = time.monotonic() + 300
    while not agent_processes(sleep_token):
        assert run.poll() is None, (run.stdout.read() if run.stdout else b"").decode()[-3000:]
        assert time.monotonic() < give_up, "the agent never started"
        time.sleep(0.1)
    return run


def kill_group(run: subprocess.Popen[bytes]) -> None:
    os.killpg(run.pid, signal.SIGKILL)
    run.wait(timeout=30)


def running_containers(label: str, value: str) -> list[str]:
    """Names of the *running* containers whose ``label`` equals ``value``."""
    from pytest_mlebench.sandbox.docker.cleanup import list_containers
    from pytest_mlebench.sandbox.docker.engine import docker_client

    client = docker_client()
    try:
        return [c.name for c in list_containers(client, {"label": f"{label}={value}"})]
    finally:
        client.close()


def exit_codes(label: str, value: str) -> list[int]:
    """Exit codes of the stopped containers whose ``label`` equals ``value``."""
    from pytest_mlebench.sandbox.docker.cleanup import list_containers
    from pytest_mlebench.sandbox.docker.engine import docker_client

    client = docker_client()
    try:
        found = list_containers(client, {"label": f"{label}={value}", "status": "exited"}, all=True)
        return [c.attrs["State"]["ExitCode"] for c in found]
    finally:
        client.close()


def wait_until_stopped(label: str, value: str, *, within: float) -> bool:
    give_up = time.monotonic() + within
    while running_containers(label, value):
        if time.monotonic() > give_up:
            return False
        time.sleep(0.5)
    return True


NETWORKS = [
    pytest.param([], id="no-network"),
    pytest.param(
        ["--mle-network", "allow:example.com"],
        id="egress",
        marks=pytest.mark.skipif(shutil.which("tinyproxy") is None, reason="needs tinyproxy"),
    ),
]


@pytest.mark.usefixtures("docker_image")
@pytest.mark.skipif(engine_is_remote(), reason="watches the agent's processes in this host's /proc")
@pytest.mark.parametrize("network", NETWORKS)
def test_killed_controller_leaves_no_running_container(tmp_path: Path, network: list[str]) -> None:
    from pytest_mlebench.sandbox.docker import COMPETITION_LABEL, reap_containers

    competition = f"expiry-{uuid.uuid4().hex[:8]}"
    sleep_token = f"36{uuid.uuid4().int % 10**6:06d}"
    run = start_killable_run(tmp_path, "docker", competition, sleep_token, *network)
    assert bool(proxies_of(tmp_path)) == bool(network)
    kill_group(run)
    # Nothing of the harness ran after SIGKILL: the container runs until its lease ends.
    assert running_containers(COMPETITION_LABEL, competition), "it went with the harness"
    # The lease began before the agent started: the deadline plus the grace bounds it from here.
    within = TIME_LIMIT + GRACE + SLACK_SECONDS
    assert wait_until_stopped(COMPETITION_LABEL, competition, within=within)
    # Stopped by its expiry: the lease keeper (the container's first process) exits 0 when its
    # lease runs out; a stop or kill from outside would leave 137 or 143.
    assert exit_codes(COMPETITION_LABEL, competition) == [0]
    assert not agent_processes(sleep_token)
    assert not proxies_of(tmp_path), "the egress proxy outlived the harness"
    # The stopped container and its egress network are the reaper's: their owner is dead.
    reap_containers(older_than_session=TEST_SESSION)
    assert containers_with(COMPETITION_LABEL, competition) == []
    assert networks_with(COMPETITION_LABEL, competition) == []


def networks_with(label: str, value: str) -> list[str]:
    from pytest_mlebench.sandbox.docker.engine import docker_client

    client = docker_client()
    try:
        return [n.name for n in client.networks.list(filters={"label": f"{label}={value}"})]
    finally:
        client.close()


def proxies_of(run_folder: Path) -> list[int]:
    """Host pids of tinyproxy processes that log into ``run_folder``'s runs."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if b"tinyproxy" not in (entry / "cmdline").read_bytes():
                continue
            if any(str(run_folder) in os.readlink(fd) for fd in (entry / "fd").iterdir()):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def agent_processes(sleep_token: str) -> list[int]:
    """Host pids whose command line is the sleeper agent's unique ``sleep``."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv[:2] == [b"sleep", sleep_token.encode()]:
            found.append(int(entry.name))
    return found


@pytest.mark.skipif(
    namespaces_unavailable() is not None,
    reason=f"local backend without namespaces: {namespaces_unavailable()} (docs/sandbox.md)",
)
def test_killed_controller_leaves_no_local_agent_process(tmp_path: Path) -> None:
    sleep_token = f"36{uuid.uuid4().int % 10**6:06d}"
    competition = f"expiry-{uuid.uuid4().hex[:8]}"
    run = start_killable_run(tmp_path, "local", competition, sleep_token)
    kill_group(run)
    give_up = time.monotonic() + SLACK_SECONDS
    while agent_processes(sleep_token):
        assert time.monotonic() < give_up, "the local agent outlived the killed harness"
        time.sleep(0.2)
    # What a killed harness does leave: the sandbox's temp folder (read-only data inside).
    for root in Path(tempfile.gettempdir()).glob(f"mlebench-{competition}-*"):
        subprocess.run(["chmod", "-R", "u+w", str(root)], check=False)
        shutil.rmtree(root)
