"""The local executor: the sandbox phase of runs on this machine.

:class:`LocalExecutor` carries out a :class:`~pytest_mlebench.sandbox_phase.SandboxJob` with the
session's backend (``local`` or ``docker``), GPUs leased from the session's pool, or a sandbox
from the ``pytest_mlebench_make_sandbox`` hook; the validator behind ``validate_submission.sh``
reads the answers here (:func:`host_validator`). Its session start (:meth:`LocalExecutor.start`)
prepares the Docker images once per session (:mod:`pytest_mlebench.session_images`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from contextlib import nullcontext
from pathlib import Path

from pytest_mlebench.agents.protocol import Agent
from pytest_mlebench.gateway.service import attached_gateway
from pytest_mlebench.phase_services import host_validator, phase_spec
from pytest_mlebench.sandbox import create_sandbox
from pytest_mlebench.sandbox.gpus import GpuPool
from pytest_mlebench.sandbox.interface import Sandbox, SandboxSpec
from pytest_mlebench.sandbox_phase import SandboxJob, SandboxOutcome, run_in_sandbox
from pytest_mlebench.session_images import (
    AGENT_IMAGE,
    SessionImages,
    SessionNeeds,
    prepare_docker,
)

MakeSandbox = Callable[[SandboxSpec], Sandbox | None]


class LocalExecutor:
    """The sandbox phase on this machine, with the session's backend (``local`` or ``docker``).

    Args:
        backend: The sandbox backend the session resolved.
        session_id: The session; its Docker images are prepared once (:meth:`start`).
        gpus: The GPUs the session may lend; each sandbox leases its own from them.
        shared_dir: A folder every process of the session shares (GPU leases, the images'
            readiness); ``None``: no GPUs to lease, no image to prepare.
        wheelhouse: ``--mle-wheelhouse``, for the wheels of an agent folder's own image.
        make_sandbox: Asked first for each sandbox (the ``pytest_mlebench_make_sandbox`` hook);
            ``None`` from it means the built-in backend.
    """

    def __init__(
        self,
        backend: str,
        session_id: str,
        *,
        gpus: Sequence[str] = (),
        shared_dir: str | None = None,
        wheelhouse: str | None = None,
        make_sandbox: MakeSandbox | None = None,
    ) -> None:
        self.backend = backend
        self.session_id = session_id
        self.gpus = tuple(gpus)
        self.shared_dir = Path(shared_dir) if shared_dir else None
        self.wheelhouse = Path(wheelhouse) if wheelhouse else None
        self.make_sandbox = make_sandbox
        self.images: SessionImages | None = None

    @property
    def gpu_lease_dir(self) -> Path | None:
        return self.shared_dir / "gpus" if self.shared_dir and self.gpus else None

    def start(self, needs: SessionNeeds) -> SessionImages:
        """Docker: reap earlier sessions' leftovers and build the agent image and the profiles
        of ``needs`` (:func:`~pytest_mlebench.session_images.prepare_docker`, once per
        session); nothing to prepare for the local backend."""
        if self.backend != "docker" or self.shared_dir is None:
            self.images = SessionImages()
        else:
            self.images = prepare_docker(needs, self.shared_dir, self.session_id, self.wheelhouse)
        return self.images

    def run(self, job: SandboxJob) -> SandboxOutcome:
        lease_dir = self.gpu_lease_dir
        pool = GpuPool(lease_dir, self.gpus) if lease_dir else None
        with pool.lease(job.gpus) if pool else nullcontext(()) as gpus:
            check = job.check
            validator = host_validator(check.answers, check.submission) if check else None
            spec = phase_spec(job.spec, gpus, validator)
            sandbox = self._sandbox(spec, job.agent, job.image)
            if job.on_sandbox is not None:
                job.on_sandbox(sandbox)
            text = job.instructions.render(sandbox.paths)
            result, calls, evidence = run_in_sandbox(sandbox, job, text, job.run_dir)
        return SandboxOutcome(
            exec_result=result,
            calls=calls,
            grant=spec.limits.resources,
            sandbox=sandbox,
            submission=job.run_dir / "submission.csv",
            evidence=evidence,
            gateway=attached_gateway(spec.services),
        )

    def _sandbox(self, spec: SandboxSpec, agent: Agent, image: str | None = None) -> Sandbox:
        custom = self.make_sandbox(spec) if self.make_sandbox is not None else None
        if custom is not None:
            return custom
        if image is None or self.backend != "docker":
            image = self._agent_image(agent)
        return create_sandbox(self.backend, spec, image=image, privileged=agent.privileged)

    def _agent_image(self, agent: Agent) -> str | None:
        """The session's agent image; a caller that runs without :meth:`start` (one run from
        the command line) starts the session here, for ``agent``."""
        images = self.images
        if images is None:
            images = self.start(SessionNeeds(agent.name, getattr(agent, "image", None)))
        return images.agent_image()

    def finish(self, session_id: str) -> int:
        """Remove containers of this session's crashed workers (Docker, once an image was
        prepared: no container can exist before)."""
        if self.backend != "docker" or self.shared_dir is None:
            return 0
        if not (self.shared_dir / f"{AGENT_IMAGE}.txt").is_file():
            return 0
        from pytest_mlebench.sandbox.docker import reap_containers

        return reap_containers(older_than_session=session_id)
