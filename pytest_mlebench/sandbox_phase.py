"""The sandbox phase of a run: its job, its outcome, the ``Executor`` role, the local executor.

A run has two halves. The sandbox phase starts a sandbox on the competition's public data, copies
the instructions in, drives the agent under the integrity watch, and copies its submission, logs
and code out; everything else (the answers, grading, the integrity checks, the record) stays with
the runner (:mod:`pytest_mlebench.runner`). This module is the seam between the two:
:class:`SandboxJob` is what the runner hands over, in plain values; :class:`SandboxOutcome` is
what comes back; an :class:`Executor` carries the job out. :class:`LocalExecutor` does it on this
machine (the ``local`` or ``docker`` backend, GPUs leased from the session's pool, or a sandbox
from the ``pytest_mlebench_make_sandbox`` hook); the Ray executor
(:class:`pytest_mlebench.cluster.remote.RayExecutor`) does it on a node of a cluster.
:mod:`pytest_mlebench.sandbox_plan` picks one per session, so the runner never asks which.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from filelock import FileLock

from pytest_mlebench.agents.protocol import Agent, AgentTask
from pytest_mlebench.gateway.service import attached_gateway
from pytest_mlebench.gpu_sampling import gpu_watch
from pytest_mlebench.graders import SubmissionSpec
from pytest_mlebench.graders.validation import SIZE_FLOOR_BYTES, max_submission_bytes
from pytest_mlebench.integrity.monitor import IntegrityRun, instructions_note
from pytest_mlebench.phase_services import (
    builder_evidence,
    host_validator,
    phase_spec,
    validation_calls,
)
from pytest_mlebench.sandbox import create_sandbox
from pytest_mlebench.sandbox.copy_budget import CopyBudget
from pytest_mlebench.sandbox.copy_out import copy_results_out
from pytest_mlebench.sandbox.gpus import GpuPool
from pytest_mlebench.sandbox.interface import (
    ContractPaths,
    ExecResult,
    ResourceGrant,
    Sandbox,
    SandboxFacts,
    SandboxSpec,
)

if TYPE_CHECKING:
    from pytest_mlebench.gateway import Gateway
    from pytest_mlebench.sandbox.docker.agent_image import ImageSource

log = logging.getLogger(__name__)

INSTRUCTIONS = Path(__file__).with_name("instructions.md")
CREDENTIAL_FOLDERS = (".kaggle", ".ssh", ".aws", ".docker", ".config", ".netrc")
IMAGE_BUILD_TIMEOUT_SECONDS = 3 * 3600
START_TIME_NAME = "mle-bench-start.time"

MakeSandbox = Callable[[SandboxSpec], Sandbox | None]


@dataclass(frozen=True)
class Instructions:
    """The agent's instructions before the sandbox's contract paths are known.

    Attributes:
        time_limit: The run's time limit in seconds, as the agent reads it.
        nonce: The run's integrity nonce, appended as the run's watermark.
        body: An engineering task's ``instruction.md`` (taken as it is, with a line naming the
            workspace); ``None``: the competition instructions.
    """

    time_limit: int
    nonce: str
    body: str | None = None

    def render(self, paths: ContractPaths) -> str:
        """The text for a sandbox with ``paths``, watermark included."""
        if self.body is not None:
            where = (
                f"\n\nYour workspace is {paths.work} ($WORK_DIR); you have {self.time_limit} "
                "seconds.\n"
            )
            return self.body.rstrip("\n") + where + instructions_note(self.nonce)
        text = INSTRUCTIONS.read_text("utf-8").format(
            data=paths.data,
            submission_file=paths.submission_file,
            validate=paths.validate,
            code=paths.code,
            logs=paths.logs,
            time_limit=self.time_limit,
        )
        return text + instructions_note(self.nonce)


@dataclass(frozen=True)
class SandboxJob:
    """The sandbox phase of one run.

    Attributes:
        spec: The run's sandbox, without GPUs (the executor leases them) and without a validator
            (the executor makes the one that can reach the answers).
        agent: The agent to drive.
        instructions: What the agent is told, rendered for the sandbox it gets.
        run_dir: The run folder on this machine, where the phase leaves ``instructions.md``,
            ``agent.log``, ``submission.csv``, ``logs/``, ``code/`` and the integrity evidence.
        answers: The answers' folder, for the validator behind ``validate_submission.sh``
            (read outside the sandbox, never mounted).
        submission: The competition's submission format, for the same validator.
        gpus: How many GPUs the sandbox leases.
        on_sandbox: Told the sandbox as soon as it is made, so that a run which breaks later
            still records which sandbox it had (never sent to another machine).
        workspace: An engineering task's prepared workspace: copied to the sandbox's
            ``WORK_DIR`` before the agent starts and, once every agent process is killed, out
            to ``run_dir/workspace`` (``None``: a competition run, with the validator).
        task_dir: The engineering task's folder, for the task's own agents.
        image: The image to run instead of the session's (an engineering task's profile).
    """

    spec: SandboxSpec
    agent: Agent
    instructions: Instructions
    run_dir: Path
    answers: Path
    submission: SubmissionSpec
    gpus: int = 0
    on_sandbox: Callable[[SandboxFacts], None] | None = field(default=None, compare=False)
    workspace: Path | None = None
    task_dir: Path | None = None
    image: str | None = None


@dataclass(frozen=True)
class SandboxOutcome:
    """What the sandbox phase hands back; the files it copied out are in the job's run folder.

    Attributes:
        exec_result: What the agent's main process did.
        calls: The calls of ``validate_submission.sh``, as the record keeps them.
        grant: The resources the sandbox was granted, GPUs included.
        sandbox: What the record says about the sandbox (stopped by now).
        submission: Where the agent's submission was copied to (it may not exist).
        evidence: The integrity evidence collected around the agent (``None``: none came back).
        gateway: The run's LLM gateway after the run, its ledger complete (``None``: no gateway).
        node: Where the run ran, for an executor with many machines (the record's ``node``).
    """

    exec_result: ExecResult
    calls: list[dict[str, Any]]
    grant: ResourceGrant
    sandbox: SandboxFacts
    submission: Path
    evidence: dict[str, Any] | None = None
    gateway: Gateway | None = None
    node: dict[str, Any] | None = None


class Executor(Protocol):
    """Carries out the sandbox phase of runs: on this machine, or on another one."""

    def run(self, job: SandboxJob) -> SandboxOutcome:
        """Run ``job``; raise (an :class:`~pytest_mlebench.errors.SandboxError` for
        infrastructure) when the phase breaks, after cleaning up what it started."""

    def finish(self, session_id: str) -> int:
        """Session end: remove sandboxes the session left behind; how many were removed."""


def hidden_host_paths(data_dir: Path) -> tuple[Path, ...]:
    """Host folders an agent must never see: the data cache (answers) and credentials."""
    home = Path.home()
    return (data_dir, *(home / name for name in CREDENTIAL_FOLDERS))


def submission_cap(answers: Path) -> int:
    """The largest submission copied out: the grader's own size guard for ``answers`` (a
    bigger one would be refused unread, so its bytes never reach the host)."""
    try:
        size = answers.stat().st_size if answers.is_file() else 0
    except OSError:
        size = 0
    return max_submission_bytes(size)


def drive_agent(
    agent: Agent,
    sandbox: Sandbox,
    task: AgentTask,
    run_dir: Path,
    *,
    workspace: bool = False,
    budget: CopyBudget | None = None,
    max_submission: int = SIZE_FLOOR_BYTES,
) -> ExecResult:
    """In a started sandbox: run the agent, kill what it left running, then copy its
    submission, logs and code (and, with a ``workspace``, ``WORK_DIR`` first) to ``run_dir``
    within ``budget`` (:func:`copy_results_out`)."""
    result = agent.run(sandbox, task)
    sandbox.kill_agent_processes()  # nothing of the agent's runs on through the copy-out
    copy_results_out(
        sandbox,
        run_dir,
        budget if budget is not None else CopyBudget(),
        max_submission=max_submission,
        workspace=workspace,
    )
    return result


def run_in_sandbox(
    sandbox: Sandbox, job: SandboxJob, instructions: str, run_dir: Path
) -> tuple[ExecResult, list[dict[str, Any]], dict[str, Any]]:
    """The phase in a sandbox made for ``job`` (not started): the instructions written to
    ``run_dir`` and copied in once, the agent driven under the integrity watch, the sandbox
    stopped. Returns the agent's result, the validator's calls and the integrity evidence."""
    path = run_dir / "instructions.md"
    path.write_text(instructions, "utf-8")
    watch = IntegrityRun(run_dir, job.agent)
    watch.nonce = job.instructions.nonce  # the one the instructions and the environment carry
    watch.evidence["nonce"] = watch.nonce
    task = AgentTask(
        competition_id=job.spec.competition_id,
        seed=job.spec.seed,
        time_limit=job.instructions.time_limit,
        log_path=run_dir / "agent.log",
        task_dir=job.task_dir,
    )
    with sandbox:
        sandbox.copy_in(path, sandbox.paths.instructions)
        if job.workspace is not None:
            sandbox.copy_in(job.workspace, sandbox.paths.work)
            write_start_time(sandbox, run_dir)
        budget = CopyBudget()
        with watch.watch(sandbox), gpu_watch(sandbox.spec.limits.resources.gpus) as gpus:
            result = drive_agent(
                job.agent,
                sandbox,
                task,
                run_dir,
                workspace=job.workspace is not None,
                budget=budget,
                max_submission=submission_cap(job.answers),
            )
            watch.evidence["copy_out"] = budget.summary()
        if gpus is not None:  # travels with the evidence; the record keeps it as gpu_usage
            watch.evidence["gpu_usage"] = gpus.summary()
        calls = validation_calls(sandbox.spec.services)
        watch.evidence.update(builder_evidence(sandbox.spec.services))
    return result, calls, watch.evidence


def write_start_time(sandbox: Sandbox, run_dir: Path) -> None:
    """The agent phase's start in ns, for the agent to read: ``/tmp/mle-bench-start.time`` in an
    isolated sandbox (the harness keeps its own copy in ``run_dir``), the sandbox's home on the
    local backend (its ``/tmp`` is the machine's)."""
    path = run_dir / START_TIME_NAME
    path.write_text(str(time.time_ns()), "utf-8")
    path.chmod(0o444)
    folder = "/tmp" if sandbox.isolated else sandbox.paths.home
    sandbox.copy_in(path, f"{folder}/{START_TIME_NAME}")


class LocalExecutor:
    """The sandbox phase on this machine, with the session's backend (``local`` or ``docker``).

    Args:
        backend: The sandbox backend the session resolved.
        session_id: The session; the Docker image is prepared once per session.
        gpus: The GPUs the session may lend; each sandbox leases its own from them.
        shared_dir: A folder every process of the session shares (GPU leases, the image's
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

    @property
    def gpu_lease_dir(self) -> Path | None:
        return self.shared_dir / "gpus" if self.shared_dir and self.gpus else None

    def run(self, job: SandboxJob) -> SandboxOutcome:
        lease_dir = self.gpu_lease_dir
        pool = GpuPool(lease_dir, self.gpus) if lease_dir else None
        with pool.lease(job.gpus) if pool else nullcontext(()) as gpus:
            spec = phase_spec(job.spec, gpus, host_validator(job.answers, job.submission))
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
            image = self.image(getattr(agent, "image", None), agent.name)
        return create_sandbox(self.backend, spec, image=image, privileged=agent.privileged)

    def image(self, agent_image: ImageSource | None = None, agent_name: str = "") -> str | None:
        """The image to run (``None`` for the local backend); prepared once per session.

        Under a file lock in the session's shared folder, the first caller reaps containers
        earlier runs left behind and builds the default agent image when missing, or the image
        of ``agent_image`` (an agent folder's Dockerfile) FROM its profile: the session runs one
        agent, so one image serves all its sandboxes. Later callers read the result.
        """
        if self.backend != "docker" or self.shared_dir is None:
            return None
        from pytest_mlebench.sandbox.docker import ensure_image, reap_containers
        from pytest_mlebench.sandbox.docker.cleanup import reap_build_images

        shared = self.shared_dir
        shared.mkdir(parents=True, exist_ok=True)
        ready = shared / "image.txt"
        with FileLock(str(shared / "engine.lock"), timeout=IMAGE_BUILD_TIMEOUT_SECONDS):
            if ready.is_file():
                return ready.read_text("utf-8").strip()
            removed = reap_containers(older_than_session=self.session_id)
            if removed:
                log.warning("removed %d sandbox container(s) left by earlier runs", removed)
            gone = reap_build_images()
            if gone:
                log.warning("removed %d image(s) the builder made for runs that crashed", gone)
            image = ensure_image(progress=log.info)
            if agent_image is not None:
                from pytest_mlebench.sandbox.docker.agent_image import ensure_agent_image

                image = ensure_agent_image(
                    agent_image, agent_name, wheels_from=self.wheelhouse, progress=log.info
                )
            ready.write_text(image, "utf-8")
        return image

    def finish(self, session_id: str) -> int:
        """Remove containers of this session's crashed workers (Docker, once an image was
        prepared: no container can exist before)."""
        if self.backend != "docker" or self.shared_dir is None:
            return 0
        if not (self.shared_dir / "image.txt").is_file():
            return 0
        from pytest_mlebench.sandbox.docker import reap_containers

        return reap_containers(older_than_session=session_id)
