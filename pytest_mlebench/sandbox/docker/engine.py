"""Reaching the Docker engine: the deferred SDK import, the client, and the availability probe.

Nothing here imports the ``docker`` SDK at module import time, so ``pytest_mlebench`` works
without the ``docker`` extra until the Docker backend is actually chosen.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType
from typing import Any

from pytest_mlebench.errors import SandboxError

INSTALL_HINT = "pip install 'pytest-mlebench[docker]'"
PING_TIMEOUT = 5
API_TIMEOUT = 120


def import_docker() -> ModuleType:
    """The ``docker`` SDK module, or a :class:`SandboxError` naming the extra to install."""
    try:
        # import_module keeps the SDK (untyped, slow to import) off every other code path.
        return importlib.import_module("docker")
    except ImportError as exc:
        raise SandboxError(
            f"the Docker backend needs the docker Python package: {INSTALL_HINT}"
        ) from exc


def docker_client(timeout: int = API_TIMEOUT) -> Any:
    """A ``docker.DockerClient`` for the engine named by ``DOCKER_HOST`` (or the local socket)."""
    docker = import_docker()
    try:
        return docker.from_env(timeout=timeout)
    except docker.errors.DockerException as exc:
        raise SandboxError(f"no Docker engine answers: {exc}; {start_hint()}") from exc


def docker_available() -> tuple[bool, str]:
    """Whether a Docker engine answers, and why (or why not), in words fit for a warning."""
    try:
        docker = import_docker()
    except SandboxError as exc:
        return False, str(exc)
    try:
        client = docker.from_env(timeout=PING_TIMEOUT)
        try:
            client.ping()
            version = client.version().get("Version", "unknown")
        finally:
            client.close()
    except (docker.errors.DockerException, OSError) as exc:
        return False, f"no Docker engine answers at {engine_address()} ({exc}); {start_hint()}"
    return True, f"Docker engine {version} at {engine_address()}"


def engine_address() -> str:
    """Where the client looks for the engine, as the user configured it."""
    return os.environ.get("DOCKER_HOST", "unix:///var/run/docker.sock")


def engine_is_remote() -> bool:
    """True when the engine runs on another machine, so host paths cannot be bind-mounted."""
    return not engine_address().startswith(("unix://", "npipe://"))


def start_hint() -> str:
    return "start the Docker engine (dockerd) or point DOCKER_HOST at an engine"
