"""The keywords that create a sandbox container: its name, its security and its resource limits.

Kept apart from :mod:`.sandbox` so the verifier's container (:mod:`.verifier_container`) makes
its limits the same way.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from pytest_mlebench.sandbox.interface import ResourceGrant, SandboxSpec

DEFAULT_PIDS_LIMIT = 4096


def container_name(spec: SandboxSpec) -> str:
    """Unique, readable and valid as a Docker name: ``mlebench-<competition>-<run>-<random>``."""
    raw = f"mlebench-{spec.subject}-{spec.run_id}"
    slug = re.sub(r"[^a-zA-Z0-9_.-]+", "-", raw)[:100].strip("-.")
    return f"{slug}-{uuid.uuid4().hex[:6]}"


def security_options(privileged: bool) -> dict[str, Any]:
    """No capabilities for the agent but the few the harness's root helpers need."""
    if privileged:
        return {"privileged": True}
    # KILL lets the harness's root helpers end agent processes; the agent itself has no caps.
    return {
        "privileged": False,
        "security_opt": ["no-new-privileges:true"],
        "cap_drop": ["ALL"],
        "cap_add": ["KILL", "CHOWN", "DAC_OVERRIDE", "FOWNER"],
    }


def resource_options(resources: ResourceGrant, docker: Any) -> dict[str, Any]:
    """Container-create keywords that enforce ``resources``."""
    options: dict[str, Any] = {"pids_limit": resources.pids or DEFAULT_PIDS_LIMIT}
    if resources.cpus:
        options["nano_cpus"] = int(resources.cpus * 1e9)
    if resources.memory:
        # Equal memory and memory+swap limits: no swap to hide an overrun in.
        options["mem_limit"] = options["memswap_limit"] = resources.memory
    if resources.shm:
        options["shm_size"] = resources.shm
    if resources.gpus:
        request = docker.types.DeviceRequest(
            device_ids=list(resources.gpus), capabilities=[["gpu"]]
        )
        options["device_requests"] = [request]
    return options
