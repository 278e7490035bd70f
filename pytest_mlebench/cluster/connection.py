"""Joining the Ray cluster once per process, and the checks that name the fix when it fails.

Every failure here is a :class:`~pytest_mlebench.errors.SandboxError`: the run that met it is
recorded as an infrastructure error and the batch goes on. A failed join is remembered, so a
batch against an unreachable cluster fails each run at once instead of waiting again.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Mapping
from typing import Any

from pytest_mlebench.errors import SandboxError

DOCKER_RESOURCE = "mlebench_docker"
INSTALL_HINT = "install it with `pip install 'pytest-mlebench[ray]'`"
START_HINT = (
    "start one on this machine with `ray start --head --resources='{\"mlebench_docker\": 4}'` "
    "and pass --mle-ray auto, or pass --mle-ray HEAD:6379 of a running cluster "
    "(docs/scale-out.md)"
)
DOCKER_NODE_HINT = (
    "start a worker on a machine with a Docker engine with "
    "`ray start --address HEAD:6379 --resources='{\"mlebench_docker\": 4}'`"
)
CONNECT_TIMEOUT_SECONDS = 10
_failed: dict[str, str] = {}


def import_ray() -> Any:
    """The ``ray`` module, or a :class:`SandboxError` naming the extra to install."""
    try:
        import ray
    except ImportError:
        raise SandboxError(f"--mle-ray needs the ray package: {INSTALL_HINT}") from None
    return ray


def join_cluster(address: str) -> Any:
    """``ray``, joined to the cluster at ``address`` (once per process)."""
    ray = import_ray()
    if ray.is_initialized():
        return ray
    if address in _failed:
        raise SandboxError(_failed[address])
    try:
        _check_reachable(address)
        ray.init(address=address, logging_level=logging.WARNING, log_to_driver=False)
    except Exception as exc:  # ray raises ConnectionError, RuntimeError or its own types
        first_line = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        _failed[address] = (
            f"cannot join the Ray cluster at {address!r} ({first_line}): {START_HINT}"
        )
        raise SandboxError(_failed[address]) from None
    return ray


def _check_reachable(address: str) -> None:
    """Fail fast on a HOST:PORT nothing listens on (``ray.init`` would retry for minutes)."""
    if address == "auto":
        return
    host, _, port = address.rpartition(":")
    with socket.create_connection((host, int(port)), timeout=CONNECT_TIMEOUT_SECONDS):
        pass


def check_fits(ray: Any, wanted: Mapping[str, float], competition_id: str) -> None:
    """Raise when no live node with Docker could ever hold a task asking for ``wanted``."""
    nodes = [node for node in ray.nodes() if node.get("Alive")]
    docker_nodes = [node for node in nodes if node["Resources"].get(DOCKER_RESOURCE, 0) > 0]
    if not docker_nodes:
        raise SandboxError(
            f"no node of the Ray cluster offers the {DOCKER_RESOURCE!r} resource that marks a "
            f"Docker engine ({len(nodes)} node(s) alive): {DOCKER_NODE_HINT}"
        )
    for resource, amount in wanted.items():
        most = max(node["Resources"].get(resource, 0) for node in docker_nodes)
        if amount > most:
            raise SandboxError(
                f"{competition_id} asks for {_amount(resource, amount)} per sandbox, but the "
                f"largest Ray node with Docker has {_amount(resource, most)}: "
                f"{_fix_for(resource)}"
            )


def _amount(resource: str, amount: float) -> str:
    if resource == "memory":
        return f"{amount / 1024**3:.1f} GiB of memory"
    names = {"CPU": "CPUs", "GPU": "GPUs"}
    return f"{amount:g} {names.get(resource, resource)}"


def _fix_for(resource: str) -> str:
    flags = {"GPU": "--mle-gpus-per-sandbox", "CPU": "--mle-cpus", "memory": "--mle-memory"}
    flag = flags.get(resource)
    lower = f"lower it with {flag}, or " if flag else ""
    return f"{lower}add a node that has more (docs/scale-out.md)"
