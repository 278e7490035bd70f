"""Fixtures of the sandbox suites: one ``sandbox_factory`` parametrised over every backend.

``local`` always runs; ``docker`` runs where an engine answers (the image is built once per session
under a file lock) and skips with the reason otherwise. Every Docker sandbox started here carries
this session's label, and the session ends with a check that none of them is left behind. The
competition, specs and validator come from the shipped conformance suite
(:mod:`pytest_mlebench.sandbox.conformance`), which ``test_conformance.py`` runs on both backends.
"""

from __future__ import annotations

import functools
import signal
import uuid
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.sandbox.conformance import (
    ANSWER_TOKEN,
    SandboxFactory,
    make_spec,
    prepare_competition_dirs,
    run_python,
)
from pytest_mlebench.sandbox.interface import Sandbox, SandboxSpec

BACKENDS = ("local", "docker")
TEST_SESSION = "sandbox-tests-" + uuid.uuid4().hex[:8]

__all__ = ["ANSWER_TOKEN", "SandboxFactory", "make_spec", "run_python"]


@functools.cache
def docker_skip_reason() -> str | None:
    """Why Docker tests cannot run here, or None when an engine answers."""
    try:
        from pytest_mlebench.sandbox.docker import docker_available
    except ImportError as exc:
        return f"the Docker backend cannot be imported: {exc}"
    ok, why = docker_available()
    return None if ok else why


@pytest.fixture(scope="session")
def docker_image(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The agent image, built once for the whole session (xdist workers share the lock)."""
    reason = docker_skip_reason()
    if reason:
        pytest.skip(f"docker backend: {reason}")
    from pytest_mlebench.sandbox.docker import ensure_image

    return ensure_image(lock_dir=tmp_path_factory.getbasetemp().parent)


@pytest.fixture(scope="session", autouse=True)
def no_container_left_behind() -> Iterator[None]:
    """After the suite, no container of this test session may remain."""
    yield
    if docker_skip_reason() is not None:
        return
    left = containers_of_session(TEST_SESSION)
    assert not left, f"sandbox containers left behind: {left}"


def answer_ctrl_c() -> None:
    """In the child: take Ctrl-C as a terminal would deliver it.

    A shell's background job (a CI step, ``cmd &``) starts with SIGINT ignored, and children
    inherit that: without this, the run would ignore the interrupt and the test would pass
    when the run merely reached its deadline.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def containers_with(label: str, value: str) -> list[str]:
    """Names of the containers (running or not) whose ``label`` equals ``value``."""
    from pytest_mlebench.sandbox.docker.cleanup import list_containers
    from pytest_mlebench.sandbox.docker.engine import docker_client

    client = docker_client()
    try:
        found = list_containers(client, {"label": f"{label}={value}"}, all=True)
        return [container.name for container in found]
    finally:
        client.close()


def containers_of_session(session: str) -> list[str]:
    from pytest_mlebench.sandbox.docker import SESSION_LABEL

    return containers_with(SESSION_LABEL, session)


@pytest.fixture
def competition_dirs(tmp_path: Path) -> tuple[Path, Path]:
    """A prepared competition: ``public/`` (train, test, sample) and ``private/`` (answers)."""
    return prepare_competition_dirs(tmp_path)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    if request.param == "docker":
        request.getfixturevalue("docker_image")
    return str(request.param)


@pytest.fixture
def sandbox_factory(backend: str, competition_dirs: tuple[Path, Path]) -> Iterator[SandboxFactory]:
    """Makes started sandboxes of the backend under test; all of them are stopped afterwards."""
    yield from _sandboxes(backend, competition_dirs[0])


@pytest.fixture
def docker_sandbox_factory(
    docker_image: str, competition_dirs: tuple[Path, Path]
) -> Iterator[SandboxFactory]:
    """Like ``sandbox_factory``, for checks that only make sense with Docker."""
    yield from _sandboxes("docker", competition_dirs[0])


def _sandboxes(backend: str, public: Path) -> Iterator[SandboxFactory]:
    started: list[Sandbox] = []

    def make(**overrides: Any) -> Sandbox:
        sandbox = new_sandbox(backend, make_spec(public, **overrides))
        started.append(sandbox)
        sandbox.start()
        return sandbox

    yield make
    for sandbox in started:
        sandbox.stop()


def in_test_session(spec: SandboxSpec) -> SandboxSpec:
    """``spec`` labelled with this test session, so the end-of-suite check finds leftovers."""
    return replace(spec, labels={**spec.labels, "pytest-mlebench.session": TEST_SESSION})


def new_sandbox(backend: str, spec: SandboxSpec) -> Sandbox:
    if backend == "docker":
        from pytest_mlebench.sandbox.docker import DockerSandbox

        return DockerSandbox(in_test_session(spec))
    from pytest_mlebench.sandbox.local import LocalSandbox

    return LocalSandbox(spec)


def require_isolation(backend: str, what: str) -> None:
    """Skip a check the local backend cannot make, saying why."""
    if backend == "local":
        pytest.skip(f"local backend: no {what} isolation (use --mle-sandbox docker)")
