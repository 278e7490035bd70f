"""The harness's image builder on the real engine: what it refuses, its limits, its cleanup.

Runs where a Docker engine answers (skipped with the reason otherwise: ``docker_image`` builds
the agent image once, ``mlebench sandbox build`` makes it by hand); every image it builds is
removed by the builder that made it.
"""

from __future__ import annotations

import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_mlebench.sandbox.docker.image_builder import (
    BUILD_LABEL,
    BUILD_REPOSITORY,
    BuildLimits,
    ImageBuilder,
)


def images_of(run_id: str) -> list[str]:
    from pytest_mlebench.sandbox.docker.engine import docker_client

    client = docker_client()
    try:
        return [
            image.id for image in client.images.list(filters={"label": f"{BUILD_LABEL}={run_id}"})
        ]
    finally:
        client.close()


@pytest.fixture
def make_builder(docker_image: str) -> Iterator:
    made: list[ImageBuilder] = []

    def make(**limits: object) -> ImageBuilder:
        run_id = f"builder-test-{uuid.uuid4().hex[:8]}"
        settings = {"allowed_from": (docker_image,), "timeout_s": 60.0, **limits}
        builder = ImageBuilder(run_id, BuildLimits(**settings), {"pytest-mlebench.test": "yes"})  # type: ignore[arg-type]
        made.append(builder)
        return builder

    yield make
    for builder in made:
        builder.remove_all()
        assert images_of(builder.run_id) == []


def context(tmp_path: Path, dockerfile: str, **files: str) -> Path:
    folder = tmp_path / f"ctx-{uuid.uuid4().hex[:6]}"
    folder.mkdir()
    (folder / "Dockerfile").write_text(dockerfile)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def test_a_build_is_labelled_tagged_per_run_and_cached_on_rebuild(
    make_builder, docker_image: str, tmp_path: Path
) -> None:
    builder = make_builder()
    text = (
        f"FROM {docker_image}\nCOPY dep.txt /dep.txt\nRUN cat /dep.txt > /copy\n"
        "COPY app.txt /app.txt\n"
    )
    folder = context(tmp_path, text, **{"dep.txt": "dep\n", "app.txt": "v1\n"})
    first = builder.build(folder)
    assert first.ok, first.log
    assert first.tag == f"{BUILD_REPOSITORY}:{builder.run_id}-1"
    labels = first.inspect["Config"]["Labels"]
    assert labels[BUILD_LABEL] == builder.run_id and labels["pytest-mlebench.test"] == "yes"
    # the engine appends the labels as LABEL steps
    assert [step["instruction"].split()[0] for step in first.steps][:4] == [
        "FROM",
        "COPY",
        "RUN",
        "COPY",
    ]
    (folder / "app.txt").write_text("v2\n")
    second = builder.build(folder)
    assert second.ok and second.tag == f"{BUILD_REPOSITORY}:{builder.run_id}-2"
    run_step = next(step for step in second.steps if step["instruction"].startswith("RUN"))
    copy_app = next(step for step in second.steps if "app.txt" in step["instruction"])
    assert run_step["cached"] and not copy_app["cached"]
    other = make_builder()
    assert other.build(folder).ok
    assert builder.remove_all() == 2
    assert images_of(builder.run_id) == []
    assert len(images_of(other.run_id)) == 1  # only the builder's own images go


def test_a_refused_from_never_reaches_the_engine(make_builder, tmp_path: Path) -> None:
    builder = make_builder()
    result = builder.build(context(tmp_path, "FROM python:3.11-slim\nRUN true\n"))
    assert not result.ok and result.refused and "not an allowed local image" in result.refused
    assert result.log.startswith("refused: ")
    assert builder.built == [] and images_of(builder.run_id) == []


def test_an_allowed_tag_missing_on_the_engine_is_refused_not_pulled(
    make_builder, tmp_path: Path
) -> None:
    missing = f"pytest-mlebench-missing-{uuid.uuid4().hex[:8]}:latest"
    builder = make_builder(allowed_from=(missing,))
    result = builder.build(context(tmp_path, f"FROM {missing}\n"))
    assert result.refused and "is not on this engine" in result.refused


def test_run_steps_have_no_network(make_builder, docker_image: str, tmp_path: Path) -> None:
    probe = "import socket; socket.create_connection(('192.0.2.1', 80), 3)"
    text = f'FROM {docker_image}\nRUN python3 -c "{probe}"\n'
    result = make_builder().build(context(tmp_path, text))
    assert not result.ok
    assert "unreachable" in result.log.lower() or "OSError" in result.log, result.log[-500:]


def test_a_build_past_its_timeout_is_killed(
    make_builder, docker_image: str, tmp_path: Path
) -> None:
    builder = make_builder(timeout_s=4.0)
    started = time.monotonic()
    result = builder.build(context(tmp_path, f"FROM {docker_image}\nRUN sleep 297\n"))
    assert not result.ok and result.timed_out
    assert time.monotonic() - started < 60
    assert "killed after 4 s" in result.log
    assert images_of(builder.run_id) == []
    assert step_containers_gone("sleep 297")  # the engine cancelled the step


def step_containers_gone(command: str, within: float = 20.0) -> bool:
    from pytest_mlebench.sandbox.docker.cleanup import list_containers
    from pytest_mlebench.sandbox.docker.engine import docker_client

    client = docker_client()
    try:
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            # Every running container: other tests' runs end (and go) meanwhile.
            running = list_containers(client, {"status": "running"})
            if not any(command in " ".join(c.attrs["Config"]["Cmd"] or []) for c in running):
                return True
            time.sleep(0.5)
        return False
    finally:
        client.close()


def test_the_context_is_capped_after_dockerignore(
    make_builder, docker_image: str, tmp_path: Path
) -> None:
    builder = make_builder(max_context_bytes=4096)
    folder = context(tmp_path, f"FROM {docker_image}\nCOPY . /ctx\n", **{"big.bin": "x" * 10_000})
    result = builder.build(folder)
    assert result.refused and "over the 4096 byte limit" in result.refused
    assert "big.bin" in result.context_files
    (folder / ".dockerignore").write_text("big.bin\n")
    kept_out = builder.build(folder)
    assert kept_out.ok, kept_out.log
    assert "big.bin" not in kept_out.context_files


def test_a_closed_builder_refuses_and_removes_what_it_built(
    make_builder, docker_image: str, tmp_path: Path
) -> None:
    builder = make_builder()
    folder = context(tmp_path, f"FROM {docker_image}\nRUN true\n")
    assert builder.build(folder).ok
    assert builder.close() == 1
    assert images_of(builder.run_id) == []
    later = builder.build(folder)
    assert not later.ok and later.refused == "closed"


def test_the_reaper_removes_the_images_of_a_dead_run_and_keeps_a_live_ones(
    docker_image: str, tmp_path: Path
) -> None:
    from pytest_mlebench.sandbox.docker.cleanup import (
        OWNER_LABEL,
        owner_token,
        ownership_labels,
        reap_build_images,
    )

    gone = subprocess.Popen(["true"])
    gone.wait()  # its pid names no process now: the owner of a run that was killed
    folder = context(tmp_path, f"FROM {docker_image}\n")
    builders = {}
    for who, owner in (("dead", owner_token(gone.pid)), ("live", owner_token())):
        labels = {**ownership_labels(f"build-run-{who}", "build"), OWNER_LABEL: owner}
        limits = BuildLimits(allowed_from=(docker_image,), timeout_s=60.0)
        builders[who] = ImageBuilder(f"reap-test-{who}-{uuid.uuid4().hex[:8]}", limits, labels)
        assert builders[who].build(folder).ok
    try:
        assert reap_build_images() >= 1
        assert images_of(builders["dead"].run_id) == []
        assert images_of(builders["live"].run_id) != []
    finally:
        for builder in builders.values():
            builder.remove_all()
