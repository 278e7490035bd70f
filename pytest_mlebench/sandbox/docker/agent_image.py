"""Build an agent folder's Dockerfile FROM a profile image, tagged by the folder's content.

Besides ``BASE_IMAGE``, the build gets the contract folders as build args (``SUBMISSION_DIR``,
``LOGS_DIR``, ``CODE_DIR``, ``AGENT_DIR``), as the original benchmark passes them to its agent
Dockerfiles. What to build comes as an :class:`ImageSource` (an agent folder's
:class:`~pytest_mlebench.agents.dockerfile.AgentImage` is one), so the sandbox layer needs nothing
from the agents above it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Protocol

from pytest_mlebench.sandbox.docker.profiles import ensure_profile, profile_tag
from pytest_mlebench.sandbox.docker.recipe import Recipe, ensure_recipe, folder_files
from pytest_mlebench.sandbox.docker.sandbox import PATHS

Progress = Callable[[str], None]


class ImageSource(Protocol):
    """An image to build FROM a profile: a folder, its Dockerfile, and an optional pip lock."""

    @property
    def folder(self) -> Path:
        """The build context (``wheelhouse/`` is added to it)."""

    @property
    def dockerfile(self) -> str:
        """The Dockerfile's path relative to :attr:`folder`."""

    @property
    def profile(self) -> str:
        """The profile image it is built FROM (``base`` or ``ml``)."""

    @property
    def lock(self) -> Path | None:
        """The pip lock whose wheels go into the context, if any."""


def agent_recipe(image: ImageSource, name: str) -> Recipe:
    """The recipe of agent ``name``'s image (repository ``pytest-mlebench-agent-<name>``)."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "folder"
    return Recipe(
        what=f"agent {name}'s image",
        repository=f"pytest-mlebench-agent-{slug}",
        files=folder_files(image.folder),
        base=profile_tag(image.profile),
        lock=image.lock,
        dockerfile=image.dockerfile,
        build_args={
            "SUBMISSION_DIR": PATHS.submission,
            "LOGS_DIR": PATHS.logs,
            "CODE_DIR": PATHS.code,
            "AGENT_DIR": PATHS.agent,
        },
    )


def ensure_agent_image(
    image: ImageSource, name: str, *, wheels_from: Path | None = None, progress: Progress
) -> str:
    """Build the profile image and then the agent's, each unless up to date; returns the tag.

    ``wheels_from`` (``--mle-wheelhouse``) serves both locks.
    """
    ensure_profile(image.profile, wheels_from=wheels_from, progress=progress)
    recipe = agent_recipe(image, name)
    return ensure_recipe(recipe, wheels_from=wheels_from, progress=progress)
