"""What one sandbox is asked to be: :class:`SandboxSpec`, with its limits, network and services.

The spec is plain frozen data, made on the controller and sent as it is to wherever the sandbox
runs (another process, a Ray node: it pickles, services included while they are not started).
It nests what a backend reads by concern, so a new concern is one field of a nested value rather
than a flat field every backend, test and serialiser must learn:

- :class:`Limits`: the time limit, the resources (:class:`ResourceGrant`) and the expiry grace;
- :class:`~pytest_mlebench.values.network_policy.NetworkPolicy`: ``none``, ``bridge`` or
  ``allow`` with its hosts;
- :class:`~pytest_mlebench.sandbox.services.Services`: the host services attached beside the
  sandbox (validator, image builder, LLM gateway, ...), each started and stopped by the backend
  through one mechanism (:mod:`pytest_mlebench.sandbox.services`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from pytest_mlebench.records.run_record import Kind
from pytest_mlebench.sandbox.services import Services
from pytest_mlebench.values.network_policy import NetworkPolicy
from pytest_mlebench.values.time_limit import DEFAULT_SANDBOX_GRACE


@dataclass(frozen=True)
class ResourceGrant:
    """What a sandbox is granted; recorded in every result. ``None`` means "no limit set"."""

    cpus: float | None = None
    memory: str | None = None
    shm: str | None = None
    pids: int | None = None
    gpus: tuple[str, ...] = ()


@dataclass(frozen=True)
class Limits:
    """What bounds one sandbox in time and resources.

    Attributes:
        time_limit: Seconds the agent gets; the harness kills it at the deadline.
        resources: CPUs, memory, shared memory, processes and GPUs granted.
        expiry_grace: Seconds a sandbox may outlive its deadline when the harness is gone
            (Docker: the container stops itself then, :mod:`~.docker.expiry`).
    """

    time_limit: float
    resources: ResourceGrant = field(default_factory=ResourceGrant)
    expiry_grace: float = float(DEFAULT_SANDBOX_GRACE)

    def with_gpus(self, gpus: Sequence[str]) -> Limits:
        """These limits with the GPUs an executor leased."""
        return replace(self, resources=replace(self.resources, gpus=tuple(gpus)))


NO_NETWORK = NetworkPolicy("none")


@dataclass(frozen=True)
class SandboxSpec:
    """Everything a backend needs to start one sandbox for one run.

    Attributes:
        run_id: Unique id of this run (also used in container names and labels).
        subject: The competition's or the engineering task's id (``COMPETITION_ID`` inside).
        kind: Which of the two ``subject`` is.
        seed: The run's seed, passed to the agent as ``MLEBENCH_SEED``.
        public_dir: Host folder with the public data (mounted read-only).
        limits: The time limit, the resources and the expiry grace.
        network: ``none`` (isolated, the default), ``bridge`` (open) or ``allow`` (only its
            hosts, through the harness's proxy; Docker only).
        services: The host services the agent reaches from inside the sandbox.
        labels: Extra labels for the sandbox (Docker labels; informational for local).
        env: Extra environment variables for the agent.
        hidden_paths: Host folders the agent must not see (the data cache with the answers,
            credentials). Docker never mounts them; the local backend masks them where it can.
        log_dir: Host folder for the sandbox's own logs (the egress proxy's), the run folder.
        workspace: Whether the sandbox has an engineering task's workspace: an empty folder at
            ``paths.work`` the agent may write, made by ``Sandbox.start``, named by
            ``WORK_DIR``; ``{WORK_DIR}`` in an ``env`` value stands for that folder.
    """

    run_id: str
    subject: str
    seed: int
    public_dir: Path
    limits: Limits
    network: NetworkPolicy = NO_NETWORK
    services: Services = field(default_factory=Services)
    labels: Mapping[str, str] = field(default_factory=dict)
    env: Mapping[str, str] = field(default_factory=dict)
    hidden_paths: tuple[Path, ...] = ()
    log_dir: Path | None = None
    workspace: bool = False
    kind: Kind = "competition"
