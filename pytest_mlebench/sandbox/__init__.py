"""Sandbox backends, chosen by name; heavy imports happen only in the branch that needs them."""

from __future__ import annotations

from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.interface import (
    ContractPaths,
    ExecResult,
    Limits,
    ResourceGrant,
    Sandbox,
    SandboxSpec,
)
from pytest_mlebench.sandbox.services import HostService, Services, ServiceSite

NO_ISOLATION_WARNING = "sandbox: local — no isolation"

__all__ = [
    "ContractPaths",
    "ExecResult",
    "HostService",
    "Limits",
    "ResourceGrant",
    "Sandbox",
    "SandboxSpec",
    "ServiceSite",
    "Services",
    "create_sandbox",
    "resolve_backend",
]


def docker_status() -> tuple[bool, str]:
    """Whether a Docker engine answers, and why not when it does not."""
    try:
        from pytest_mlebench.sandbox.docker import docker_available
    except ImportError as exc:
        return False, f"the Docker backend cannot be imported ({exc})"
    return docker_available()


def resolve_backend(requested: str) -> tuple[str, str | None]:
    """The backend to use for ``requested`` (auto/local/docker) and a warning to show, if any."""
    if requested == "local":
        return "local", NO_ISOLATION_WARNING + " (chosen with --mle-sandbox local)"
    if requested == "docker":
        ok, why = docker_status()
        if not ok:
            raise SandboxError(f"--mle-sandbox docker: {why}")
        return "docker", None
    ok, why = docker_status()
    if ok:
        return "docker", None
    return "local", f"{NO_ISOLATION_WARNING} (no Docker engine: {why})"


def create_sandbox(
    backend: str, spec: SandboxSpec, *, image: str | None = None, privileged: bool = False
) -> Sandbox:
    """A not-yet-started sandbox of ``backend`` for ``spec``.

    ``image`` and ``privileged`` only matter to Docker; the local backend cannot grant privileges
    and refuses an agent that asks for them.
    """
    if backend == "local":
        from pytest_mlebench.sandbox.local import LocalSandbox

        if privileged:
            raise SandboxError("the local backend cannot run a privileged agent; use docker")
        return LocalSandbox(spec)
    if backend == "docker":
        from pytest_mlebench.sandbox.docker import DockerSandbox

        return DockerSandbox(spec, image=image, privileged=privileged)
    raise SandboxError(f"unknown sandbox backend {backend!r}; choose local or docker")
