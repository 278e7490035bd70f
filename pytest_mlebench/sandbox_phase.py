"""The sandbox phase of a run: its job, its outcome, the ``Executor`` role, the local executor.

A run has two halves. The sandbox phase starts a sandbox on the competition's public data, copies
the instructions in, drives the agent under the integrity watch, and copies its submission, logs
and code out; everything else (the answers, grading, the integrity checks, the record) stays with
the run (:mod:`pytest_mlebench.run`). This module is the seam between the two:
:class:`SandboxJob` is what the runner hands over, in plain values; :class:`SandboxOutcome` is
what comes back; an :class:`Executor` carries the job out. The local executor
(:class:`pytest_mlebench.local_executor.LocalExecutor`) does it on this machine; the Ray executor
(:class:`pytest_mlebench.cluster.remote.RayExecutor`) does it on a node of a cluster.
:mod:`pytest_mlebench.sandbox_plan` picks one per session, so the runner never asks which.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from pytest_mlebench.agents.protocol import Agent, AgentTask
from pytest_mlebench.anytime.copies import CopyPlan, SubmissionWatcher
from pytest_mlebench.checkpoint.resume import ResumePoint, restore_snapshot
from pytest_mlebench.checkpoint.snapshotter import CheckpointPlan, Publish, Snapshotter
from pytest_mlebench.gpu_sampling import gpu_watch
from pytest_mlebench.graders import SubmissionSpec
from pytest_mlebench.graders.validation import SIZE_FLOOR_BYTES, max_submission_bytes
from pytest_mlebench.integrity.nonce import Watermark
from pytest_mlebench.integrity.run_evidence import Evidence
from pytest_mlebench.integrity.watch import SandboxWatch
from pytest_mlebench.phase_services import builder_evidence, validation_calls
from pytest_mlebench.sandbox.copy_budget import CopyBudget
from pytest_mlebench.sandbox.copy_out import copy_results_out
from pytest_mlebench.sandbox.interface import (
    ContractPaths,
    ExecResult,
    ResourceGrant,
    Sandbox,
    SandboxFacts,
    SandboxSpec,
)
from pytest_mlebench.session_images import (
    SessionImages,
    SessionNeeds,
)

if TYPE_CHECKING:
    from pytest_mlebench.gateway import Gateway

INSTRUCTIONS = Path(__file__).with_name("instructions.md")
CREDENTIAL_FOLDERS = (".kaggle", ".ssh", ".aws", ".docker", ".config", ".netrc")
START_TIME_NAME = "mle-bench-start.time"


@dataclass(frozen=True)
class Instructions:
    """The agent's instructions before the sandbox's contract paths are known.

    Attributes:
        time_limit: The run's time limit in seconds, as the agent reads it.
        watermark: The run's watermark, appended to the text (and, by the job, to the env).
        body: An engineering task's ``instruction.md`` (taken as it is, with a line naming the
            workspace); ``None``: the competition instructions.
        resume_note: The line that tells a resumed agent so (``None``: a first attempt).
    """

    time_limit: int
    watermark: Watermark
    body: str | None = None
    resume_note: str | None = None

    def render(self, paths: ContractPaths) -> str:
        """The text for a sandbox with ``paths``, watermark included."""
        if self.body is not None:
            where = (
                f"\n\nYour workspace is {paths.work} ($WORK_DIR); you have {self.time_limit} "
                "seconds.\n"
            )
            return self.body.rstrip("\n") + where + (self.resume_note or "") + self.watermark.note()
        text = INSTRUCTIONS.read_text("utf-8").format(
            data=paths.data,
            submission_file=paths.submission_file,
            validate=paths.validate,
            code=paths.code,
            logs=paths.logs,
            time_limit=self.time_limit,
        )
        return text + (self.resume_note or "") + self.watermark.note()


@dataclass(frozen=True)
class SubmissionCheck:
    """What ``validate_submission.sh`` checks a competition's submission against, on the host.

    Attributes:
        answers: The answers' folder (read outside the sandbox, never mounted).
        submission: The competition's submission format.
    """

    answers: Path
    submission: SubmissionSpec


@dataclass(frozen=True)
class SandboxJob:
    """The sandbox phase of one run.

    Attributes:
        spec: The run's sandbox, without GPUs (the executor leases them) and without a validator
            (the executor makes the one that can reach the answers); the job adds the watermark.
        agent: The agent to drive.
        instructions: What the agent is told, rendered for the sandbox it gets.
        run_dir: The run folder on this machine, where the phase leaves ``instructions.md``,
            ``agent.log``, ``submission.csv``, ``logs/``, ``code/`` and the integrity evidence.
        check: What the validator behind ``validate_submission.sh`` checks a submission
            against (``None``: the run has no submission, as an engineering task's).
        gpus: How many GPUs the sandbox leases.
        on_sandbox: Told the sandbox as soon as it is made, so that a run which breaks later
            still records which sandbox it had (never sent to another machine).
        workspace: An engineering task's prepared workspace: copied to the sandbox's
            ``WORK_DIR`` before the agent starts and, once every agent process is killed, out
            to ``run_dir/workspace`` (``None``: a competition run, with the validator).
        task_dir: The engineering task's folder, for the task's own agents.
        image: The image to run instead of the session's (an engineering task's profile).
        checkpoint: How the live run is snapshotted (``None``: it is not).
        resume: The snapshot restored before the agent starts (``None``: a first attempt);
            set with :meth:`resuming`.
        copies: How the submission is copied while the agent runs, for anytime grading
            (``None``: it is not; :mod:`pytest_mlebench.anytime`).
    """

    spec: SandboxSpec
    agent: Agent
    instructions: Instructions
    run_dir: Path
    check: SubmissionCheck | None = None
    gpus: int = 0
    on_sandbox: Callable[[SandboxFacts], None] | None = field(default=None, compare=False)
    workspace: Path | None = None
    task_dir: Path | None = None
    image: str | None = None
    checkpoint: CheckpointPlan | None = None
    resume: ResumePoint | None = None
    copies: CopyPlan | None = None

    def __post_init__(self) -> None:
        env = {**self.spec.env, **self.watermark.env}
        if env != self.spec.env:  # one watermark: the instructions' is the environment's
            object.__setattr__(self, "spec", replace(self.spec, env=env))

    @property
    def watermark(self) -> Watermark:
        """The run's watermark, as the instructions and the sandbox's environment carry it."""
        return self.instructions.watermark

    def resuming(self, point: ResumePoint) -> SandboxJob:
        """This job resumed from ``point``: the agent gets the remaining seconds, is told it
        resumes (environment and instructions), and the snapshot is restored before it starts;
        its own snapshots count the time used before."""
        seconds = point.remaining
        spec = replace(
            self.spec,
            limits=replace(self.spec.limits, time_limit=seconds),
            env={**self.spec.env, **point.env()},
        )
        instructions = replace(self.instructions, time_limit=seconds, resume_note=point.note())
        checkpoint = self.checkpoint
        if checkpoint is not None:
            checkpoint = replace(checkpoint, time_used_before=point.time_used)
        copies = self.copies
        if copies is not None:
            copies = replace(copies, time_used_before=point.time_used)
        return replace(
            self,
            spec=spec,
            instructions=instructions,
            checkpoint=checkpoint,
            resume=point,
            copies=copies,
        )


@dataclass(frozen=True)
class SandboxOutcome:
    """What the sandbox phase hands back; the files it copied out are in the job's run folder.

    Attributes:
        exec_result: What the agent's main process did.
        calls: The calls of ``validate_submission.sh``, as the record keeps them.
        grant: The resources the sandbox was granted, GPUs included.
        sandbox: What the record says about the sandbox (stopped by now).
        submission: Where the agent's submission was copied to (it may not exist).
        evidence: The integrity evidence the watch collected (``None``: none came back).
        gateway: The run's LLM gateway after the run, its ledger complete (``None``: no gateway).
        node: Where the run ran, for an executor with many machines (the record's ``node``).
        resumed: The record's ``resumed`` when the executor itself resumed the run from a
            snapshot (a Ray retry after a lost node); ``None``: it did not.
    """

    exec_result: ExecResult
    calls: list[dict[str, Any]]
    grant: ResourceGrant
    sandbox: SandboxFacts
    submission: Path
    evidence: Evidence | None = None
    gateway: Gateway | None = None
    node: dict[str, Any] | None = None
    resumed: dict[str, Any] | None = None


class Executor(Protocol):
    """Carries out the sandbox phase of runs: on this machine, or on another one.

    Its session lifecycle: :meth:`start` once per process before its first run (the work it
    does is done once per session, whichever process comes first), :meth:`run` per run,
    :meth:`finish` once on the controller at session end.
    """

    def start(self, needs: SessionNeeds) -> SessionImages:
        """Session start, before any run: reap what earlier sessions left and build the images
        ``needs`` names; what each run will use. A failed build is kept in the answer (the runs
        that need it record why), never raised here."""

    def run(self, job: SandboxJob) -> SandboxOutcome:
        """Run ``job``; raise (an :class:`~pytest_mlebench.errors.SandboxError` for
        infrastructure) when the phase breaks, after cleaning up what it started."""

    def finish(self, session_id: str) -> int:
        """Session end: remove sandboxes the session left behind; how many were removed."""


def hidden_host_paths(data_dir: Path) -> tuple[Path, ...]:
    """Host folders an agent must never see: the data cache (answers) and credentials."""
    home = Path.home()
    return (data_dir, *(home / name for name in CREDENTIAL_FOLDERS))


def submission_cap(answers: Path | None) -> int:
    """The largest submission copied out: the grader's own size guard for ``answers`` (a
    bigger one would be refused unread, so its bytes never reach the host); the floor without
    answers."""
    if answers is None:
        return SIZE_FLOOR_BYTES
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
    snapshots: Snapshotter | None = None,
    copies: SubmissionWatcher | None = None,
) -> ExecResult:
    """In a started sandbox: run the agent (``snapshots`` taken and the submission's ``copies``
    kept beside it, both stopped when it ends), kill what it left running, then copy its
    submission, logs and code (and, with a ``workspace``, ``WORK_DIR`` first) to ``run_dir``
    within ``budget`` (:func:`copy_results_out`)."""
    with ExitStack() as beside:
        for watcher in (snapshots, copies):
            if watcher is not None:
                beside.enter_context(watcher)
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
    sandbox: Sandbox,
    job: SandboxJob,
    instructions: str,
    run_dir: Path,
    *,
    publish: Publish | None = None,
) -> tuple[ExecResult, list[dict[str, Any]], Evidence]:
    """The phase in a sandbox made for ``job`` (not started): the instructions written to
    ``run_dir`` and copied in once, a resumed job's snapshot restored, the agent driven under
    the integrity watch (for the job's watermark) and snapshotted every interval of the job's
    ``checkpoint`` (each snapshot handed to ``publish`` too), the sandbox stopped. Returns the
    agent's result, the validator's calls and the integrity evidence (saved in ``run_dir`` as
    well)."""
    path = run_dir / "instructions.md"
    path.write_text(instructions, "utf-8")
    watch = SandboxWatch(job.watermark, run_dir)
    task = AgentTask(
        competition_id=job.spec.subject,
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
        if job.resume is not None and job.resume.snapshot is not None:
            restore_snapshot(sandbox, job.resume.snapshot)
        budget = CopyBudget()
        max_submission = submission_cap(job.check.answers if job.check else None)
        snapshots = (
            Snapshotter(
                sandbox, run_dir, job.checkpoint, max_submission=max_submission, publish=publish
            )
            if job.checkpoint is not None
            else None
        )
        copies = (
            SubmissionWatcher(sandbox, run_dir, job.copies, max_submission=max_submission)
            if job.copies is not None
            else None
        )
        with watch.around(sandbox), gpu_watch(sandbox.spec.limits.resources.gpus) as gpus:
            result = drive_agent(
                job.agent,
                sandbox,
                task,
                run_dir,
                workspace=job.workspace is not None,
                budget=budget,
                max_submission=max_submission,
                snapshots=snapshots,
                copies=copies,
            )
            watch.add(copy_out=budget.summary())
        if gpus is not None:  # travels with the evidence; the record keeps it as gpu_usage
            watch.add(gpu_usage=gpus.summary())
        calls = validation_calls(sandbox.spec.services)
        built = builder_evidence(sandbox.spec.services)
        if built:
            watch.add(build_calls=tuple(built["build_calls"]), build_refused=built["build_refused"])
    watch.save()  # with the facts gathered after the watch (what a Ray node sends back)
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
