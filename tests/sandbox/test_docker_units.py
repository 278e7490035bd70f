"""The Docker backend's pure pieces, without an engine: options, names, logs, ownership, probes."""

from __future__ import annotations

import socket
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.docker import cleanup, engine
from pytest_mlebench.sandbox.docker.execution import CappedLog
from pytest_mlebench.sandbox.docker.image import context_files, image_tag
from pytest_mlebench.sandbox.docker.sandbox import (
    DEFAULT_PIDS_LIMIT,
    container_name,
    resource_options,
)
from pytest_mlebench.sandbox.interface import ResourceGrant
from tests.sandbox.conftest import make_spec


class FakeDeviceRequest:
    def __init__(self, **fields: Any) -> None:
        self.fields = fields


FAKE_DOCKER = SimpleNamespace(types=SimpleNamespace(DeviceRequest=FakeDeviceRequest))


class FakeContainer:
    """Just what the reaper reads: labels and the creation time."""

    def __init__(self, labels: dict[str, str], created: str = "2000-01-01T00:00:00.0Z") -> None:
        self.labels = labels
        self.attrs = {"Created": created}
        self.name = "fake"


def test_resource_options_map_every_limit() -> None:
    grant = ResourceGrant(cpus=2.5, memory="512m", shm="1g", pids=100, gpus=("fake-1", "fake-3"))
    options = resource_options(grant, FAKE_DOCKER)
    assert options["nano_cpus"] == 2_500_000_000
    assert options["mem_limit"] == options["memswap_limit"] == "512m"
    assert options["shm_size"] == "1g"
    assert options["pids_limit"] == 100
    (request,) = options["device_requests"]
    assert request.fields == {"device_ids": ["fake-1", "fake-3"], "capabilities": [["gpu"]]}


def test_no_limits_still_caps_processes() -> None:
    assert resource_options(ResourceGrant(), FAKE_DOCKER) == {"pids_limit": DEFAULT_PIDS_LIMIT}


def test_container_names_are_unique_and_valid(tmp_path: Path) -> None:
    spec = make_spec(tmp_path, run_id="run/with spaces:1", subject="my comp")
    names = {container_name(spec) for _ in range(50)}
    assert len(names) == 50
    for name in names:
        assert name.startswith("mlebench-my-comp-run-with-spaces-1-")
        assert all(c.isalnum() or c in "_.-" for c in name)


def test_capped_log_keeps_the_limit_and_the_tail(tmp_path: Path) -> None:
    log = CappedLog(tmp_path / "out.log", limit=10)
    log.pump([b"0123456789", b"abcdef", b"END"])
    text = (tmp_path / "out.log").read_text()
    assert text.startswith("0123456789\n[mlebench: 9 more bytes dropped]")
    assert log.tail_text().startswith("0123456789abcdefEND")
    assert "9 bytes of output were not kept" in log.tail_text()


def test_capped_log_survives_a_broken_stream(tmp_path: Path) -> None:
    def broken() -> Any:
        yield b"partial"
        raise ConnectionError("engine went away")

    log = CappedLog(tmp_path / "out.log")
    log.pump(broken())
    assert log.tail_text() == "partial"


def test_owner_token_of_this_process_is_alive() -> None:
    assert cleanup.owner_alive(cleanup.owner_token())


def test_owner_token_of_an_ended_process_is_dead() -> None:
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    token = cleanup.owner_token(child.pid)
    child.wait()
    assert not cleanup.owner_alive(token)
    assert not cleanup.owner_alive("")


def test_reaper_decisions() -> None:
    here = socket.gethostname()
    alive = cleanup.owner_token()
    dead = f"{here}:999999999:1"
    foreign = "fake-remote-host:1:1"
    recent = "2999-01-01T00:00:00Z"

    def abandoned(owner: str, session: str | None, created: str = "2000-01-01T00:00:00Z") -> bool:
        labels = {cleanup.OWNER_LABEL: owner, cleanup.SESSION_LABEL: "old"}
        return cleanup._abandoned(FakeContainer(labels, created), session)

    assert not abandoned(alive, "now")
    assert abandoned(dead, "now")
    assert abandoned(dead, "old")  # a crashed worker of the running session
    assert abandoned(foreign, None)  # by hand
    assert abandoned(foreign, "now")  # another session, days old
    assert not abandoned(foreign, "old")  # the running session's, elsewhere
    assert not abandoned(foreign, "now", created=recent)  # maybe still running elsewhere


def test_a_live_session_on_a_twin_host_keeps_its_containers() -> None:
    """Another machine (or a container) with this host's name shares the engine: its pids mean
    nothing here, so the lazy reaper at session start must not judge its owner dead."""
    just_made = datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")
    labels = {
        cleanup.OWNER_LABEL: f"{socket.gethostname()}:999999999:1",
        cleanup.PROCESS_SPACE_LABEL: "another-boot.4026531836",
        cleanup.SESSION_LABEL: "their-session",
    }
    assert not cleanup.owned_here(labels)
    assert not cleanup._abandoned(FakeContainer(labels, just_made), "our-session")
    assert cleanup._abandoned(FakeContainer(labels, "2000-01-01T00:00:00Z"), "our-session")
    # The same owner in this process space has died: its container goes.
    here = {**labels, cleanup.PROCESS_SPACE_LABEL: cleanup.process_space()}
    assert cleanup._abandoned(FakeContainer(here, just_made), "our-session")


def test_ownership_labels_name_run_and_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYTEST_XDIST_WORKER", "gw3")
    monkeypatch.setenv(cleanup.SESSION_ENV, "fake-session")
    labels = cleanup.ownership_labels("run-1", "digits")
    assert labels[cleanup.RUN_ID_LABEL] == "run-1"
    assert labels[cleanup.COMPETITION_LABEL] == "digits"
    assert labels[cleanup.WORKER_LABEL] == "gw3"
    assert labels[cleanup.SESSION_LABEL] == "fake-session"
    assert labels[cleanup.PROCESS_SPACE_LABEL] == cleanup.process_space()
    assert cleanup.owner_alive(labels[cleanup.OWNER_LABEL])


def test_missing_sdk_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "docker", None)
    with pytest.raises(SandboxError, match=r"pytest-mlebench\[docker\]"):
        engine.import_docker()
    ok, why = engine.docker_available()
    assert not ok and "pytest-mlebench[docker]" in why


def test_no_engine_is_reported_not_raised(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DOCKER_HOST", f"unix://{tmp_path}/no-such.sock")
    ok, why = engine.docker_available()
    assert not ok
    assert "no Docker engine answers" in why and "DOCKER_HOST" in why


@pytest.mark.parametrize(
    ("address", "remote"),
    [("unix:///var/run/docker.sock", False), ("tcp://10.0.0.5:2376", True), ("ssh://ci@box", True)],
)
def test_remote_engines_are_recognised(
    monkeypatch: pytest.MonkeyPatch, address: str, remote: bool
) -> None:
    monkeypatch.setenv("DOCKER_HOST", address)
    assert engine.engine_is_remote() is remote


def test_build_context_holds_the_client_and_the_script() -> None:
    files = context_files()
    assert {"Dockerfile", "check_image.py", "validate_client.py", "validate_submission.sh"} <= set(
        files
    )
    assert b"/usr/local/lib/mlebench/validate_client.py" in files["validate_submission.sh"]


def test_image_tag_is_a_content_hash() -> None:
    repository, _, digest = image_tag().partition(":")
    assert repository == "pytest-mlebench-agent"
    assert len(digest) == 12 and all(c in "0123456789abcdef" for c in digest)


def test_image_tag_can_be_overridden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MLEBENCH_IMAGE", "registry.example/agent:1")
    image_tag.cache_clear()
    try:
        assert image_tag() == "registry.example/agent:1"
    finally:
        image_tag.cache_clear()


class FakeForkingContainer:
    """A fake engine container whose agent keeps a process alive through the first
    ``survive_signals`` keeper signals, and which always lists one zombie of the agent's uid."""

    def __init__(self, survive_signals: int) -> None:
        self.survive_signals = survive_signals
        self.signals = 0

    def exec_run(self, cmd: list[str], user: str) -> tuple[int, bytes]:
        return 1, b""  # the killer leaves survivors

    def kill(self, signal: str) -> None:
        assert signal == "SIGUSR2"
        self.signals += 1

    def top(self, ps_args: str) -> dict[str, Any]:
        rows = [["1000", "7", "Z"]]
        if self.signals <= self.survive_signals:
            rows.append(["1000", "8", "R"])
        return {"Titles": ["UID", "PID", "STAT"], "Processes": rows}


def test_the_keeper_is_signalled_again_until_no_live_agent_process_is_left(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from pytest_mlebench.sandbox.docker import killer

    monkeypatch.setattr(killer, "RESIGNAL_SECONDS", 0.0)
    container = FakeForkingContainer(survive_signals=3)
    assert killer.kill_agent_processes(container, settle=5.0)
    assert container.signals == 4  # one missed child per signal for three rounds; zombies ignored


def test_a_process_that_survives_every_signal_is_reported() -> None:
    from pytest_mlebench.sandbox.docker import killer

    container = FakeForkingContainer(survive_signals=10**6)
    assert not killer.kill_agent_processes(container, settle=0.3)


class FakeExecEngine:
    """A named fake of the engine's exec API for one command that ends at once with exit 0;
    it records every ``exec_run`` (the killer and the cgroup probe run that way)."""

    def __init__(self) -> None:
        self.id = "fake"
        self.name = "fake"
        self.client = self
        self.api = self
        self.runs: list[list[str]] = []

    def exec_create(self, container: str, cmd: list[str], **options: Any) -> dict[str, str]:
        return {"Id": "exec"}

    def exec_start(self, exec_id: str, stream: bool) -> Any:
        class Stream(list[bytes]):
            def close(self) -> None:
                pass

        return Stream([b"done\n"])

    def exec_inspect(self, exec_id: str) -> dict[str, Any]:
        return {"Running": False, "ExitCode": 0}

    def exec_run(self, cmd: list[str], user: str) -> tuple[int, bytes]:
        self.runs.append(cmd)
        return 0, b""

    def top(self, ps_args: str) -> dict[str, Any]:
        return {"Titles": ["UID", "PID", "STAT"], "Processes": []}


@pytest.mark.parametrize("agent", [True, False])
def test_only_an_agent_exec_runs_the_killer_after_it_ends(agent: bool) -> None:
    from pytest_mlebench.sandbox.docker.execution import run_exec
    from pytest_mlebench.sandbox.docker.killer import KILL_SCRIPT

    engine = FakeExecEngine()
    result = run_exec(
        engine, ["true"], user="root", env={}, workdir="/", timeout=10, log_path=None,
        account=False, agent=agent,
    )  # fmt: skip
    assert result.exit_code == 0 and not result.restarted
    assert (["sh", "-c", KILL_SCRIPT] in engine.runs) is agent
