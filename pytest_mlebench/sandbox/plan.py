"""What a session decides once about sandboxes, and shares with every xdist worker.

Two steps, so that a pytest run that selects no benchmark test never builds an image:

- :func:`plan_sandboxes` (controller, at session start, cheap): resolve ``--mle-sandbox auto``
  with one engine ping, and pick the GPUs the session may lend. The plan travels to workers as
  JSON, so every process uses the same backend and the header can warn once.
- :func:`engine_ready` (first benchmark run of any process, Docker only): under a file lock in a
  folder the session's processes share, the first caller reaps containers earlier runs left
  behind and builds the agent image when missing (and the agent folder's own image, built FROM
  its profile, when its config names a Dockerfile); later callers read the result.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from filelock import FileLock

from pytest_mlebench.sandbox import resolve_backend
from pytest_mlebench.settings import Settings

if TYPE_CHECKING:
    from pytest_mlebench.agents.dockerfile import AgentImage

log = logging.getLogger(__name__)
IMAGE_BUILD_TIMEOUT_SECONDS = 3 * 3600


@dataclass(frozen=True)
class SandboxPlan:
    """The session's sandbox decisions (JSON-serialisable for xdist's workerinput)."""

    backend: str
    gpus: tuple[str, ...] = ()
    shared_dir: str | None = None
    notices: tuple[str, ...] = field(default_factory=tuple)
    wheelhouse: str | None = None
    ray: str | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SandboxPlan:
        return cls(
            backend=str(data["backend"]),
            gpus=tuple(data.get("gpus") or ()),
            shared_dir=data.get("shared_dir"),
            notices=tuple(data.get("notices") or ()),
            wheelhouse=data.get("wheelhouse"),
            ray=data.get("ray"),
        )

    @property
    def gpu_lease_dir(self) -> Path | None:
        return Path(self.shared_dir) / "gpus" if self.shared_dir and self.gpus else None


def plan_sandboxes(settings: Settings, session_id: str) -> SandboxPlan:
    """Resolve the backend and the GPUs of this session (controller only; builds nothing)."""
    from pytest_mlebench.sandbox.gpus import detect_gpus, select_gpus

    shared = Path(tempfile.gettempdir()) / f"mlebench-session-{session_id}"
    if settings.ray:
        # Docker sandboxes on the cluster's nodes; Ray places GPUs, no local lease file.
        notice = f"sandboxes run on the Ray cluster at {settings.ray}; grading stays here"
        return SandboxPlan("docker", shared_dir=str(shared), notices=(notice,), ray=settings.ray)
    backend, warning = resolve_backend(settings.sandbox)
    notices = [warning] if warning else []
    # ``auto`` finding none is warned about after collection, and only when a selected
    # competition asks for a GPU (pytest_mlebench.session_notes).
    gpus = select_gpus(settings.gpus, detect_gpus() if settings.gpus != "none" else ())
    wheelhouse = str(settings.wheelhouse) if settings.wheelhouse else None
    return SandboxPlan(
        backend=backend,
        gpus=gpus,
        shared_dir=str(shared),
        notices=tuple(notices),
        wheelhouse=wheelhouse,
    )


def engine_ready(
    plan: SandboxPlan, session_id: str, agent_image: AgentImage | None = None, agent_name: str = ""
) -> str | None:
    """The image to run (``None`` for the local backend); prepared once per session.

    The default agent image, or the image of ``agent_image`` (an agent folder's Dockerfile) built
    FROM its profile: the session runs one agent, so one image serves all its sandboxes.
    """
    if plan.backend != "docker" or plan.shared_dir is None:
        return None
    from pytest_mlebench.sandbox.docker import ensure_image, reap_containers

    shared = Path(plan.shared_dir)
    shared.mkdir(parents=True, exist_ok=True)
    ready = shared / "image.txt"
    with FileLock(str(shared / "engine.lock"), timeout=IMAGE_BUILD_TIMEOUT_SECONDS):
        if ready.is_file():
            return ready.read_text("utf-8").strip()
        removed = reap_containers(older_than_session=session_id)
        if removed:
            log.warning("removed %d sandbox container(s) left by earlier runs", removed)
        image = ensure_image(progress=log.info)
        if agent_image is not None:
            image = _agent_image(plan, agent_image, agent_name)
        ready.write_text(image, "utf-8")
    return image


def _agent_image(plan: SandboxPlan, agent_image: AgentImage, agent_name: str) -> str:
    from pytest_mlebench.sandbox.docker.agent_image import ensure_agent_image

    wheels_from = Path(plan.wheelhouse) if plan.wheelhouse else None
    return ensure_agent_image(agent_image, agent_name, wheels_from=wheels_from, progress=log.info)


def finish_sandboxes(plan: SandboxPlan, session_id: str) -> int:
    """Controller, session end: remove containers of crashed workers; forget the shared folder."""
    shared = Path(plan.shared_dir) if plan.shared_dir else None
    removed = 0
    if plan.ray:
        from pytest_mlebench.cluster.executor import reap_session

        removed = reap_session(plan.ray, session_id)
    elif plan.backend == "docker" and shared is not None and (shared / "image.txt").is_file():
        from pytest_mlebench.sandbox.docker import reap_containers

        removed = reap_containers(older_than_session=session_id)
    if shared is not None:
        shutil.rmtree(shared, ignore_errors=True)
    return removed
