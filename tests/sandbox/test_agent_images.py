"""Agent Dockerfiles and image profiles, built for real from a small lock (needs Docker).

The lock pins one pure-Python wheel built here with hatchling, so the whole mechanism runs offline
in seconds: the wheelhouse enters the build context, pip installs with ``--no-index
--require-hashes``, the image is tagged by content, an unchanged lock does not rebuild and a
changed one does. The real ``ml`` profile Dockerfile is built the same way with that small lock
(under a test repository name, so a full ``ml`` image on the machine is left alone).
"""

from __future__ import annotations

import dataclasses
import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_mlebench.agents import FolderAgent, load_agent
from pytest_mlebench.cli import main
from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.docker.agent_image import agent_recipe, ensure_agent_image
from pytest_mlebench.sandbox.docker.profiles import profile_dir, profile_recipe
from pytest_mlebench.sandbox.docker.recipe import ensure_recipe, folder_files
from pytest_mlebench.sandbox.interface import Sandbox
from tests.factories import write_competition
from tests.sandbox.conftest import in_test_session, make_spec
from tests.sandbox.test_benchmark_docker import benchmark_command
from tests.wheels import agent_folder, build_wheel, lock_for

pytestmark = pytest.mark.usefixtures("docker_image")

CHECK = "/usr/local/lib/mlebench/check_image.py"
PROBE = "import mlimage_probe, sys; print('probe', mlimage_probe.VALUE, sys.executable)"


@dataclasses.dataclass(frozen=True)
class Wheels:
    v1: Path
    v2: Path


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> Wheels:
    """Two versions of a one-module wheel, each alone in its own wheelhouse folder."""
    root = tmp_path_factory.mktemp("wheels")
    return Wheels(
        v1=build_wheel(root / "one", "mlimage-probe", "1.0", "v1"),
        v2=build_wheel(root / "two", "mlimage-probe", "2.0", "v2"),
    )


@pytest.fixture
def started(competition_dirs: tuple[Path, Path]) -> Iterator[list[Sandbox]]:
    sandboxes: list[Sandbox] = []
    yield sandboxes
    for sandbox in sandboxes:
        sandbox.stop()


def run_in(image: str, public: Path, started: list[Sandbox], code: str) -> str:
    from pytest_mlebench.sandbox.docker import DockerSandbox

    sandbox = DockerSandbox(in_test_session(make_spec(public)), image=image)
    started.append(sandbox)
    sandbox.start()
    result = sandbox.exec(["python3", "-c", code], timeout=60)
    assert result.exit_code == 0, result.output_tail
    return result.output_tail


def stage_images() -> list[str]:
    from pytest_mlebench.sandbox.docker.engine import docker_client
    from pytest_mlebench.sandbox.docker.recipe import STAGE_LABEL

    client = docker_client()
    try:
        return [image.id for image in client.images.list(all=True, filters={"label": STAGE_LABEL})]
    finally:
        client.close()


def folder_agent(path: Path) -> FolderAgent:
    agent = load_agent(str(path))
    assert isinstance(agent, FolderAgent) and agent.image is not None
    return agent


def build(agent: FolderAgent, wheelhouse: Path | None, lines: list[str]) -> str:
    assert agent.image is not None
    return ensure_agent_image(
        agent.image, agent.name, wheels_from=wheelhouse, progress=lines.append
    )


def test_an_agent_image_builds_offline_rebuilds_only_on_change_and_runs(
    tmp_path: Path, wheels: Wheels, competition_dirs: tuple[Path, Path], started: list[Sandbox]
) -> None:
    folder = agent_folder(tmp_path / "agent", lock_for(wheels.v1), module="mlimage_probe")
    lines: list[str] = []
    first = build(folder_agent(folder), wheels.v1.parent, lines)
    assert first.startswith("pytest-mlebench-agent-probe:")
    assert run_in(first, competition_dirs[0], started, PROBE).startswith(
        "probe v1 /usr/bin/python3"
    )

    lines.clear()
    assert build(folder_agent(folder), wheels.v1.parent, lines) == first
    assert any(line.endswith(f"{first} is up to date") for line in lines)
    assert not any(line.startswith("building agent") for line in lines)

    (folder / "requirements.lock").write_text(lock_for(wheels.v2))
    lines.clear()
    second = build(folder_agent(folder), wheels.v2.parent, lines)
    assert second != first
    assert any(line.startswith("building agent probe's image") for line in lines)
    assert run_in(second, competition_dirs[0], started, PROBE).startswith("probe v2")


MLEBENCH_STYLE_DOCKERFILE = """\
ARG BASE_IMAGE=pytest-mlebench-agent:latest
FROM ${BASE_IMAGE}
ARG LOGS_DIR
ENV LOGS_DIR=${LOGS_DIR}
ARG AGENT_DIR
ENV AGENT_DIR=${AGENT_DIR}
RUN mkdir -p ${LOGS_DIR} ${AGENT_DIR} && echo "baked ${LOGS_DIR} ${AGENT_DIR}" > /etc/agent-dirs
"""


def test_the_contract_folders_are_build_args_and_a_lock_is_optional(
    tmp_path: Path, competition_dirs: tuple[Path, Path], started: list[Sandbox]
) -> None:
    """Dockerfiles in the original's shape read the folders from build args, as there."""
    folder = agent_folder(tmp_path / "agent", "", module="unused")
    (folder / "requirements.lock").unlink()
    (folder / "Dockerfile").write_text(MLEBENCH_STYLE_DOCKERFILE)
    config = (folder / "config.yaml").read_text().replace("  requirements: requirements.lock\n", "")
    (folder / "config.yaml").write_text(config)
    tag = build(folder_agent(folder), None, [])
    code = "print(open('/etc/agent-dirs').read().strip())"
    assert run_in(tag, competition_dirs[0], started, code).startswith(
        "baked /home/logs /home/agent"
    )


def test_a_wheel_that_does_not_match_the_lock_stops_the_build(
    tmp_path: Path, wheels: Wheels
) -> None:
    lock = lock_for(wheels.v1, digests={wheels.v1: "0" * 64})
    folder = agent_folder(tmp_path / "agent", lock, module="mlimage_probe")
    with pytest.raises(SandboxError, match="hash mismatch: .*mlimage_probe-1.0"):
        build(folder_agent(folder), wheels.v1.parent, [])


def test_an_air_gapped_build_without_the_wheels_says_what_to_do(
    tmp_path: Path, wheels: Wheels
) -> None:
    folder = agent_folder(tmp_path / "agent", lock_for(wheels.v2), module="mlimage_probe")
    with pytest.raises(
        SandboxError, match=r"lacks mlimage_probe==2\.0; on a machine .*pip download"
    ):
        build(folder_agent(folder), wheels.v1.parent, [])


def test_a_failing_dockerfile_is_a_clear_error(tmp_path: Path, wheels: Wheels) -> None:
    folder = agent_folder(tmp_path / "agent", lock_for(wheels.v1), module="mlimage_probe")
    with (folder / "Dockerfile").open("a") as handle:
        handle.write("RUN echo the agent setup broke && false\n")
    with pytest.raises(SandboxError, match="building agent probe's image failed: .*returned a non"):
        build(folder_agent(folder), wheels.v1.parent, [])


def test_the_ml_profile_dockerfile_installs_a_lock_into_the_venv_on_path(
    tmp_path: Path, wheels: Wheels, competition_dirs: tuple[Path, Path], started: list[Sandbox]
) -> None:
    """The shipped ml Dockerfile with a one-wheel lock: venv python3 first on PATH, image clean."""
    real = profile_recipe("ml")
    profile = tmp_path / "ml"
    shutil.copytree(profile_dir("ml"), profile)
    (profile / "requirements.lock").write_text(lock_for(wheels.v1))
    (profile / "imports.txt").write_text("mlimage_probe\n")
    (profile / "build-id.txt").write_text(str(tmp_path))  # a new tag in every test session
    recipe = dataclasses.replace(
        real,
        repository="pytest-mlebench-ml-small-lock-test",
        files=folder_files(profile),
        lock=profile / "requirements.lock",
    )
    tag = ensure_recipe(recipe, wheels_from=wheels.v1.parent, progress=lambda line: None)
    assert stage_images() == [], "the install stage's images must be removed after the build"
    output = run_in(tag, competition_dirs[0], started, PROBE)
    assert output.startswith("probe v1 /opt/mlebench-ml/bin/python3")
    check = f"import runpy; runpy.run_path('{CHECK}', run_name='__main__')"
    assert "clean: no bundled competition data found" in run_in(
        tag, competition_dirs[0], started, check
    )


def test_the_plugin_runs_the_agent_in_its_image_and_records_the_tag(
    tmp_path: Path, wheels: Wheels
) -> None:
    """The real plugin in a subprocess, with the cached wheelhouse filled by the host's pip."""
    folder = agent_folder(tmp_path / "agent", lock_for(wheels.v1), module="mlimage_probe")
    with (folder / "start.sh").open("a") as handle:
        handle.write('cp "$DATA_DIR/sample_submission.csv" "$SUBMISSION_DIR/submission.csv"\n')
    write_competition(tmp_path / "defs", "probe-toy", splits={"probe": ["probe-toy"]})
    command = benchmark_command(
        tmp_path,
        "-m",
        "probe",
        "--mle-agent",
        str(folder),
        "--mle-competitions-dir",
        str(tmp_path / "defs"),
    )
    env = {
        "PIP_NO_INDEX": "1",
        "PIP_FIND_LINKS": str(wheels.v1.parent),
        "XDG_CACHE_HOME": str(tmp_path / "cache"),
    }
    done = subprocess.run(
        command,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, **env},
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    (record,) = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    agent = folder_agent(folder)
    assert agent.image is not None
    assert record["image"] == agent_recipe(agent.image, agent.name).tag
    assert record["sandbox"] == "docker" and record["outcome"] == "passed"
    (log,) = (tmp_path / "runs").glob("*/agent.log")
    assert "probe says v1" in log.read_text()
    assert (tmp_path / "cache" / "mlebench" / "wheels" / wheels.v1.name).is_file()


def test_the_build_command_without_wheels_says_what_to_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A profile whose image is not built and whose wheels are not in ``--wheelhouse``."""
    from pytest_mlebench.sandbox.docker import profiles

    wheel = build_wheel(tmp_path, "mlimage-probe", "1.0", "v1")
    folder = tmp_path / "profiles" / "ml"
    folder.mkdir(parents=True)
    (folder / "Dockerfile").write_text("ARG BASE_IMAGE\nFROM ${BASE_IMAGE}\n")
    (folder / "requirements.lock").write_text(f"# {tmp_path}\n" + lock_for(wheel))
    monkeypatch.setattr(profiles, "PROFILES_DIR", tmp_path / "profiles")
    code = main(["sandbox", "build", "--profile", "ml", "--wheelhouse", str(tmp_path / "none")])
    err = capsys.readouterr().err
    assert code == 1
    assert f"wheelhouse {tmp_path / 'none'} does not exist" in err
    assert "python3 -m pip download --no-deps --require-hashes" in err
