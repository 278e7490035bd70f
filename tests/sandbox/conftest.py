"""Fixtures of the sandbox suites: one ``sandbox_factory`` parametrised over every backend.

``local`` always runs; ``docker`` runs where an engine answers (the image is built once per session
under a file lock) and skips with the reason otherwise. Every Docker sandbox started here carries
this session's label, and the session ends with a check that none of them is left behind.
"""

from __future__ import annotations

import functools
import os
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.graders import ScoreResult
from pytest_mlebench.sandbox.base import ResourceGrant, Sandbox, SandboxSpec

BACKENDS = ("local", "docker")
ANSWER_TOKEN = "ANSWER-" + uuid.uuid4().hex  # appears only in the private answers
TEST_SESSION = "sandbox-tests-" + uuid.uuid4().hex[:8]

SandboxFactory = Callable[..., Sandbox]


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


def containers_with(label: str, value: str) -> list[str]:
    """Names of the containers (running or not) whose ``label`` equals ``value``."""
    from pytest_mlebench.sandbox.docker.engine import docker_client

    client = docker_client()
    try:
        found = client.containers.list(all=True, filters={"label": f"{label}={value}"})
        return [container.name for container in found]
    finally:
        client.close()


def containers_of_session(session: str) -> list[str]:
    from pytest_mlebench.sandbox.docker import SESSION_LABEL

    return containers_with(SESSION_LABEL, session)


@pytest.fixture
def competition_dirs(tmp_path: Path) -> tuple[Path, Path]:
    """A prepared competition: ``public/`` (train, test, sample) and ``private/`` (answers)."""
    public, private = tmp_path / "prepared" / "public", tmp_path / "prepared" / "private"
    public.mkdir(parents=True)
    private.mkdir()
    (public / "train.csv").write_text("id,x,label\n1,0.1,0\n2,0.9,1\n")
    (public / "test.csv").write_text("id,x\n3,0.2\n4,0.8\n")
    (public / "sample_submission.csv").write_text("id,label\n3,0\n4,0\n")
    (private / "answers.csv").write_text(f"id,label\n3,0\n4,1\n# {ANSWER_TOKEN}\n")
    # As data preparation leaves them: public readable by all, private by its owner only.
    os.chmod(tmp_path, 0o755)
    os.chmod(tmp_path / "prepared", 0o755)
    private.chmod(0o700)
    return public, private


def fake_validator(path: Path) -> ScoreResult:
    """Stands in for the grader's validation: valid when the header is ``id,label``."""
    header = path.read_text().splitlines()[:1]
    if header == ["id,label"]:
        return ScoreResult(valid=True, score=0.123)
    return ScoreResult(valid=False, reason="expected the columns id,label")


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


def make_spec(public: Path, **overrides: Any) -> SandboxSpec:
    run_id = f"conformance-{uuid.uuid4().hex[:8]}"
    fields: dict[str, Any] = {
        "run_id": run_id,
        "competition_id": "toy",
        "seed": 7,
        "public_dir": public,
        "instructions": "Predict label for test.csv.",
        "time_limit": 60,
        "resources": ResourceGrant(memory="1g", pids=256),
        "validator": fake_validator,
        "labels": {"pytest-mlebench.session": TEST_SESSION},
        "hidden_paths": (public.parent / "private",),
    }
    fields.update(overrides)
    return SandboxSpec(**fields)


def new_sandbox(backend: str, spec: SandboxSpec) -> Sandbox:
    if backend == "docker":
        from pytest_mlebench.sandbox.docker import DockerSandbox

        return DockerSandbox(spec)
    from pytest_mlebench.sandbox.local import LocalSandbox

    return LocalSandbox(spec)


def run_python(sandbox: Sandbox, code: str, **kwargs: Any) -> Any:
    """Run a Python snippet inside ``sandbox`` with its own interpreter."""
    return sandbox.exec([sandbox.python, "-c", code], **kwargs)


def require_isolation(backend: str, what: str) -> None:
    """Skip a check the local backend cannot make, saying why."""
    if backend == "local":
        pytest.skip(f"local backend: no {what} isolation (use --mle-sandbox docker)")
