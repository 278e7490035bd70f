"""The executor's session start on this machine: work done once per session, before any run.

A session's runs share what its executor prepares at start (``Executor.start``):
containers and builder images left by earlier sessions are reaped, the agent image is built (or
an agent folder's own image FROM its profile), and each engineering profile image the selected
tasks use is built and proven free of hidden files. Every xdist worker calls ``start``; the
first to take the lock does the work (:func:`once_per_session`), the others read its answer.
:class:`SessionNeeds` says what to prepare, :class:`SessionImages` what came of it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from filelock import FileLock

from pytest_mlebench.errors import MLEBenchError, SandboxError

if TYPE_CHECKING:
    from pytest_mlebench.sandbox.docker.agent_image import ImageSource

log = logging.getLogger(__name__)

BUILD_TIMEOUT_SECONDS = 3 * 3600
AGENT_IMAGE = "image"  # image.txt in the shared folder: also tells finish() a container may exist


@dataclass(frozen=True)
class SessionNeeds:
    """What the session's runs will ask of their executor, known before the first run.

    Attributes:
        agent_name: The session's agent.
        agent_image: Its own image (an agent folder's Dockerfile), else ``None``: the default.
        profiles: The engineering profile images the selected tasks use (empty: no task).
        hidden: Folders whose files no profile image may hold (every task's hidden ones).
    """

    agent_name: str = ""
    agent_image: ImageSource | None = None
    profiles: tuple[str, ...] = ()
    hidden: tuple[Path, ...] = ()


@dataclass(frozen=True)
class SessionImages:
    """The images a started executor runs, by role.

    Attributes:
        agent: The agent image's tag (``None``: the backend runs no image, or it failed).
        agent_error: Why the agent image could not be made (each run then raises it, so each
            records an ``error``), else ``None``.
        profiles: Each profile's tag that was built and proven clean.
        refused: Each profile that cannot be used, with the error that says why.
        docker: Whether the executor runs images at all (``False``: every lookup is ``None``).
    """

    agent: str | None = None
    agent_error: Exception | None = None
    profiles: Mapping[str, str] = field(default_factory=dict)
    refused: Mapping[str, MLEBenchError] = field(default_factory=dict)
    docker: bool = False

    def agent_image(self) -> str | None:
        """The agent image's tag; raise the error that stopped it at session start."""
        if self.agent_error is not None:
            raise self.agent_error
        return self.agent

    def profile(self, name: str) -> str | None:
        """The tag of profile ``name`` (``None`` without Docker); raise the error that stopped
        its build at session start, or :class:`SandboxError` when none was asked for it."""
        if not self.docker:
            return None
        if name in self.refused:
            raise self.refused[name]
        if name not in self.profiles:
            raise SandboxError(
                f"the {name} image was not prepared at session start; build it with "
                f"mlebench sandbox build --profile {name}"
            )
        return self.profiles[name]


def once_per_session(shared: Path, name: str, make: Callable[[], str]) -> str:
    """``make()``'s answer, computed by the first process of the session to get here (under a
    file lock in ``shared``, the session's folder) and read back by every later one; a failed
    ``make`` leaves nothing behind, so the next caller tries again."""
    shared.mkdir(parents=True, exist_ok=True)
    ready = shared / f"{name}.txt"
    with FileLock(str(shared / f"{name}.lock"), timeout=BUILD_TIMEOUT_SECONDS):
        if ready.is_file():
            return ready.read_text("utf-8").strip()
        value = make()
        ready.write_text(value, "utf-8")
    return value


def prepare_docker(
    needs: SessionNeeds, shared: Path, session_id: str, wheelhouse: Path | None
) -> SessionImages:
    """Docker's session start: the engine cleaned of earlier sessions' leftovers and the agent
    image ready (once), then every profile of ``needs`` (once each)."""
    agent: str | None = None
    agent_error: Exception | None = None
    try:
        agent = once_per_session(
            shared, AGENT_IMAGE, lambda: _engine_ready(needs, session_id, wheelhouse)
        )
    except Exception as exc:  # a broken engine or build: every run records it as its error
        agent_error = exc
    profiles: dict[str, str] = {}
    refused: dict[str, MLEBenchError] = {}
    for name in needs.profiles:
        try:
            profiles[name] = once_per_session(
                shared, f"profile-{name}", _profile_builder(name, wheelhouse, needs.hidden)
            )
        except MLEBenchError as exc:
            refused[name] = exc
    return SessionImages(agent, agent_error, profiles, refused, docker=True)


def _profile_builder(name: str, wheels: Path | None, hidden: Sequence[Path]) -> Callable[[], str]:
    from pytest_mlebench.eng_images import profile_image

    return lambda: profile_image(name, wheels, hidden)


def _engine_ready(needs: SessionNeeds, session_id: str, wheelhouse: Path | None) -> str:
    """Reap what earlier sessions left, then build the agent image when missing: the default
    one, or the agent folder's FROM its profile (one agent per session, one image)."""
    from pytest_mlebench.sandbox.docker import ensure_image, reap_containers
    from pytest_mlebench.sandbox.docker.cleanup import reap_build_images

    removed = reap_containers(older_than_session=session_id)
    if removed:
        log.warning("removed %d sandbox container(s) left by earlier runs", removed)
    gone = reap_build_images()
    if gone:
        log.warning("removed %d image(s) the builder made for runs that crashed", gone)
    image = ensure_image(progress=log.info)
    if needs.agent_image is None:
        return image
    from pytest_mlebench.sandbox.docker.agent_image import ensure_agent_image

    return ensure_agent_image(
        needs.agent_image, needs.agent_name, wheels_from=wheelhouse, progress=log.info
    )
