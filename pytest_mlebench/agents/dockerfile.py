"""An agent folder's own image: the ``dockerfile``, ``image`` and ``requirements`` config fields.

Read when the agent is loaded (bad input fails before any run); built by the Docker backend once
per session (:func:`pytest_mlebench.sandbox.docker.agent_image.ensure_agent_image`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.errors import AgentError, SandboxError


@dataclass(frozen=True)
class AgentImage:
    """How to build an agent's image.

    Attributes:
        folder: The agent folder (the build context, with ``wheelhouse/`` added).
        dockerfile: The Dockerfile's path relative to ``folder``.
        profile: The profile image it is built FROM (``base`` or ``ml``).
        requirements: A pip lock (``==`` pins with hashes) relative to ``folder``, or ``None``.
    """

    folder: Path
    dockerfile: str
    profile: str = "base"
    requirements: str | None = None

    @property
    def lock(self) -> Path | None:
        return self.folder / self.requirements if self.requirements else None


def agent_image(entry: Mapping[str, Any], folder: Path, config_path: Path) -> AgentImage | None:
    """The entry's image, ``None`` when it has no ``dockerfile``; errors name the field and fix."""
    dockerfile = entry.get("dockerfile")
    for field in ("image", "requirements"):
        if dockerfile is None and entry.get(field) is not None:
            raise AgentError(f"{config_path}: '{field}' needs a 'dockerfile' to build the image")
    if dockerfile is None:
        return None
    from pytest_mlebench.sandbox.docker.profiles import PROFILES

    profile = str(entry.get("image") or "base")
    if profile not in PROFILES:
        raise AgentError(
            f"{config_path}: image {profile!r} is not a profile; choose {' or '.join(PROFILES)}"
        )
    if not (folder / str(dockerfile)).is_file():
        raise AgentError(f"{config_path}: dockerfile {dockerfile!r} is not a file in {folder}")
    requirements = entry.get("requirements")
    image = AgentImage(
        folder, str(dockerfile), profile, str(requirements) if requirements else None
    )
    _check_lock(image, config_path)
    return image


def _check_lock(image: AgentImage, config_path: Path) -> None:
    from pytest_mlebench.sandbox.docker.wheelhouse import read_lock

    if image.lock is None:
        return
    if not image.lock.is_file():
        raise AgentError(f"{config_path}: requirements {image.requirements!r} is not a file")
    try:
        read_lock(image.lock)
    except SandboxError as exc:
        raise AgentError(f"{config_path}: {exc}") from None
