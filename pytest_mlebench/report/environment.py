"""The run environment written to reports: agent, sandbox, image, resources, versions, git commit.

Built once on the controller. Users add or change entries with the
``pytest_mlebench_update_environment(environment)`` hook.
"""

from __future__ import annotations

import platform
import subprocess
from collections.abc import Sequence
from importlib import metadata
from pathlib import Path
from typing import Any

from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.session import MLEBenchSession

PACKAGES = ("pytest-mlebench", "pytest", "pytest-xdist", "allure-pytest")


def package_version(name: str) -> str:
    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return "not installed"


def git_commit(folder: Path) -> str:
    """``HEAD`` of the git checkout at ``folder`` (``unknown`` outside one or without git)."""
    try:
        done = subprocess.run(
            ["git", "-C", str(folder), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return done.stdout.strip() if done.returncode == 0 and done.stdout.strip() else "unknown"


def image_name(backend: str) -> str:
    """The agent image (its tag carries a hash of the build context) for the docker backend."""
    if backend != "docker":
        return "none (no container)"
    try:
        from pytest_mlebench.sandbox.docker.image import image_tag
    except ImportError:
        return "unknown"
    try:
        return str(image_tag())
    except Exception as exc:  # the image module reads files; a report must not fail on it
        return f"unknown ({type(exc).__name__})"


def granted_resources(records: Sequence[RunRecord]) -> str:
    """The distinct resource grants the runs got, e.g. ``cpus=2 memory=4g shm=1g``."""
    grants = sorted(
        {
            " ".join(f"{k}={v}" for k, v in sorted(r.resources.items()) if v not in ((), [], None))
            for r in records
            if r.resources
        }
    )
    return "; ".join(grants) if grants else "none recorded"


def build_environment(
    mle_session: MLEBenchSession, rootdir: Path, records: Sequence[RunRecord]
) -> dict[str, Any]:
    """The environment entries of this session (before the user hook runs)."""
    settings = mle_session.settings
    environment: dict[str, Any] = {
        "agent": mle_session.agent.name,
        "sandbox.backend": mle_session.backend,
        "sandbox.requested": settings.sandbox,
        "sandbox.image": ", ".join(sorted({r.image for r in records if r.image}))
        or image_name(mle_session.backend),
        "sandbox.network": str(mle_session.network),
        "resources.cpus": settings.cpus or "per competition",
        "resources.memory": settings.memory or "per competition",
        "resources.shm": settings.shm or "per competition",
        "resources.gpus": f"{settings.gpus} (per sandbox "
        f"{settings.gpus_per_sandbox or 'per competition'})",
        "resources.pids": settings.pids or "per competition",
        "resources.granted": granted_resources(records),
        "time_limit": settings.time_limit or "per competition",
        "seeds": settings.seeds,
        "description": settings.description,  # --mle-description: the variant the agent read
        "gate": settings.require,
        "session_id": mle_session.session_id,
        "git.commit": git_commit(rootdir),
        "python": platform.python_version(),
        "platform": platform.platform(),
    }
    environment.update({f"version.{name}": package_version(name) for name in PACKAGES})
    return environment
