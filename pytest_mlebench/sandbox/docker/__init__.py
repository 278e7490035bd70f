"""The Docker backend: agent image, containers, cleanup and the engine probe.

Importing this package does not import the ``docker`` SDK; that happens when a function below first
talks to an engine, and fails with a message naming ``pip install 'pytest-mlebench[docker]'``.
"""

from __future__ import annotations

from pytest_mlebench.sandbox.docker.cleanup import (
    COMPETITION_LABEL,
    MANAGED_LABEL,
    RUN_ID_LABEL,
    SESSION_LABEL,
    WORKER_LABEL,
    current_session_id,
    reap_containers,
)
from pytest_mlebench.sandbox.docker.engine import docker_available
from pytest_mlebench.sandbox.docker.image import build_image, ensure_image, image_tag
from pytest_mlebench.sandbox.docker.sandbox import DockerSandbox

__all__ = [
    "COMPETITION_LABEL",
    "MANAGED_LABEL",
    "RUN_ID_LABEL",
    "SESSION_LABEL",
    "WORKER_LABEL",
    "DockerSandbox",
    "build_image",
    "current_session_id",
    "docker_available",
    "ensure_image",
    "image_tag",
    "reap_containers",
]
