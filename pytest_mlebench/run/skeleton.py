"""One run of a benchmark test, whatever its kind: the skeleton every kind of run walks through.

:class:`Run` owns the steps every run has — its id and folder, the agent, the integrity watch, the
time limit and the resources, the sandbox spec and job, the executor call (on this machine or on
a Ray node: the run never asks which), the record, its write and its hand-over — and leaves to
its kind what differs: :meth:`Run.judge` (a competition grades the submission and checks its
integrity, an engineering task runs its verifier and scores its checks) and a few small
overrides of the spec and the job (:mod:`.competition`, :mod:`.engineering`). A record is always
written, also when the sandbox, the agent or the judging breaks (outcome ``error``, failure class
``infra`` or ``agent_crash``); a run the harness broke is tried again first, up to
``--mle-retries`` times (:meth:`Run.execute`).
"""

from __future__ import annotations

import uuid
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import asdict, replace
from pathlib import Path
from typing import Any, ClassVar

import pytest

from pytest_mlebench.agents import load_agent
from pytest_mlebench.agents.stop_reason import read_stop_reason
from pytest_mlebench.checkpoint.marker import StartedRun, mark_interrupted
from pytest_mlebench.checkpoint.resume import ResumePoint, resume_point
from pytest_mlebench.checkpoint.snapshotter import CheckpointPlan
from pytest_mlebench.errors import AgentError
from pytest_mlebench.gateway import Gateway
from pytest_mlebench.gateway.service import gateway_service
from pytest_mlebench.integrity.monitor import IntegrityRun
from pytest_mlebench.records.build import exit_note, keep_run_files
from pytest_mlebench.records.failure_class import FailureClass, attempt_entry, exception_class
from pytest_mlebench.records.run_record import Kind, Outcome, RunRecord
from pytest_mlebench.run.case import RunCase
from pytest_mlebench.run.context import run_gateway, subject_record
from pytest_mlebench.run.judgement import Judgement
from pytest_mlebench.run.session_start import StartedExecutor, start_executor
from pytest_mlebench.run.subject import Subject
from pytest_mlebench.sandbox.interface import ResourceGrant, SandboxFacts, SandboxSpec
from pytest_mlebench.sandbox.sandbox_spec import Limits
from pytest_mlebench.sandbox.services import Services
from pytest_mlebench.sandbox_phase import (
    Instructions,
    SandboxJob,
    SandboxOutcome,
    hidden_host_paths,
)
from pytest_mlebench.session import MLEBenchSession
from pytest_mlebench.timestamps import utc_timestamp
from pytest_mlebench.values.checkpoint_every import interval_for
from pytest_mlebench.values.time_limit import run_time_limit


class Run(ABC):
    """Drives one run and records it. Create one per test; call :meth:`execute` once.

    Args:
        mle_session: The session.
        subject: What is run (a competition or an engineering task).
        case: The test's case (subject, kind, seed, the run's own agent).
        test_id: The test's node id, for the record.
        pluginmanager: Whose hooks hear of the record.
        started: The session's started executor (``None``: started here for this case).
        on_record: Who takes the finished record (the fixture's ``handover.record_sink``: the
            item's stash, where the reports read it), also an ``error`` record.
    """

    kind: ClassVar[Kind]

    def __init__(
        self,
        mle_session: MLEBenchSession,
        subject: Subject,
        case: RunCase,
        test_id: str,
        pluginmanager: pytest.PytestPluginManager,
        started: StartedExecutor | None = None,
        on_record: Callable[[RunRecord], None] | None = None,
    ) -> None:
        self.mle_session = mle_session
        self.subject = subject
        self.case = case
        self.test_id = test_id
        self.hooks = pluginmanager.hook
        self.started = started or start_executor(mle_session, self.hooks, [case])
        self.run_id = f"{subject.id}-s{case.seed}-{uuid.uuid4().hex[:8]}"
        self.run_dir = mle_session.settings.results_path.parent / "runs" / self.run_id
        self.started_at = utc_timestamp()
        # the case's own agent ('cheat:*' gives each cheat a case), else the session's
        self.agent = mle_session.agent if case.agent is None else load_agent(case.agent)
        self.integrity = IntegrityRun(self.run_dir, self.agent)
        self.sandbox: SandboxFacts | None = None
        self.node: dict[str, Any] | None = None  # the Ray node that ran it (--mle-ray)
        self.gateway: Gateway | None = None
        self.gpu_usage: dict[str, Any] | None = None  # what the GPU sampler saw
        self.attempts: list[dict[str, Any]] = []  # earlier attempts the harness broke
        self.resumed: dict[str, Any] | None = None  # the executor's own resume (a Ray retry)
        self.on_record = on_record
        plan = mle_session.resume
        # the run of a dead session this one resumes (--mle-resume); None: a first attempt
        self.resume: ResumePoint | None = (
            plan.point_for(subject.id, case.seed) if plan is not None else None
        )

    @property
    def full_time_limit(self) -> int:
        """The agent's whole seconds, before a resumed attempt took its share."""
        return run_time_limit(self.mle_session.settings.time_limit, self.subject)

    @property
    def time_limit(self) -> int:
        """The seconds this attempt's agent gets: the whole, or what a resume left."""
        if self.resume is not None:
            return self.resume.remaining
        return self.full_time_limit

    def resume_from(self, run_dir: Path | None = None) -> ResumePoint:
        """Resume from the last snapshot of the run in ``run_dir`` (default: this run's own
        folder; from scratch where it took none): the next :meth:`execute` restores it and
        gives the agent the time left. What a retry of this run calls before it starts again."""
        self.resume = resume_point(run_dir or self.run_dir, self.full_time_limit)
        return self.resume

    def resources(self) -> ResourceGrant:
        """Each limit as the user set it, else as the subject asks (GPUs: the executor's)."""
        settings, wanted = self.mle_session.settings, self.subject.resources
        return ResourceGrant(
            cpus=settings.cpus or wanted.cpus,
            memory=settings.memory or wanted.memory,
            shm=settings.shm or wanted.shm,
            pids=settings.pids or wanted.pids,
        )

    def execute(self) -> RunRecord:
        """Run the agent and judge it; the record is written before this returns or raises.

        A run the harness broke (class ``infra``) is tried again, up to ``--mle-retries``
        times, after :meth:`before_retry`; an agent's failure never is. Only the last attempt's
        record is kept; it lists the earlier ones (``attempts``).
        """
        self.run_dir.mkdir(parents=True, exist_ok=True)
        self.before_sandbox()
        self.started_marker().write(self.run_dir)  # after a skip: a skipped run never resumes
        while True:
            try:
                outcome = self._sandbox_phase()
                judgement = self.judge(outcome)
                break
            except Exception as exc:
                failure, reason = exception_class(exc), f"{type(exc).__name__}: {exc}"
                if failure == "infra" and len(self.attempts) < self.mle_session.settings.retries:
                    self.attempts.append(attempt_entry(len(self.attempts) + 1, failure, reason))
                    self.before_retry()
                    continue
                self.hand_over(self._record("error", reason, failure_class=failure))
                raise
            except KeyboardInterrupt:  # no record: the marker says so, --mle-resume finds it
                mark_interrupted(self.run_dir)
                raise
        record = self._record(judgement.outcome, judgement.reason, outcome, judgement)
        self.hand_over(record)
        return record

    def before_retry(self) -> None:
        """Called before each new attempt of a run whose last attempt the harness broke
        (``--mle-retries``); the next attempt reuses the run's id and folder and resumes from
        the run's last snapshot with the time left (:meth:`resume_from`); a run that took none
        starts again as it first did (a resumed one: from the snapshot it resumed from)."""
        point = resume_point(self.run_dir, self.full_time_limit)
        if point.snapshot is not None or self.resume is not None:
            self.resume = point

    # -- what a kind supplies -------------------------------------------------------------

    def before_sandbox(self) -> None:
        """A kind's step before the sandbox phase (it may record a skip and skip)."""
        return None

    @abstractmethod
    def judge(self, outcome: SandboxOutcome) -> Judgement:
        """The kind's judgement of the sandbox phase's ``outcome``."""

    @abstractmethod
    def public_dir(self) -> Path:
        """The folder mounted read-only as the agent's data."""

    def instruction_body(self) -> str | None:
        """The instructions' own text (``None``: the competition instructions)."""
        return None

    def phase_ended(self) -> None:
        """Told when the executor is done with the job, whether it succeeded or not."""
        return None

    # -- the skeleton's steps -------------------------------------------------------------

    def started_marker(self) -> StartedRun:
        """The run's ``started.json``: what ``--mle-resume`` needs to find and resume it."""
        return StartedRun(
            run_id=self.run_id,
            session_id=self.mle_session.session_id,
            test_id=self.test_id,
            kind=self.kind,
            subject=self.subject.id,
            seed=self.case.seed,
            agent=self.agent.name,
            time_limit=self.full_time_limit,
            started_at=self.started_at,
            resumed_from=self.resume.entry() if self.resume is not None else None,
        )

    def checkpoint_plan(self) -> CheckpointPlan | None:
        """How this run is snapshotted (``--mle-checkpoint-every``, ``--mle-checkpoint-cap``);
        ``None`` when it is off or the run is not longer than the interval."""
        settings = self.mle_session.settings
        interval = interval_for(settings.checkpoint_every, self.time_limit)
        if interval is None:
            return None
        return CheckpointPlan(interval, settings.checkpoint_cap)

    def sandbox_spec(self) -> SandboxSpec:
        """The run's sandbox as this machine sees it (the executor adds GPUs and the
        validator); a kind adds its own with :func:`dataclasses.replace`."""
        settings = self.mle_session.settings
        return SandboxSpec(
            run_id=self.run_id,
            subject=self.subject.id,
            kind=self.kind,
            seed=self.case.seed,
            public_dir=self.public_dir(),
            limits=Limits(self.time_limit, self.resources(), settings.sandbox_grace),
            network=self.mle_session.network,
            services=Services.of(gateway_service(self.gateway)),
            log_dir=self.run_dir,
            labels=self.labels(),
            hidden_paths=hidden_host_paths(settings.data_dir),
        )

    def labels(self) -> dict[str, str]:
        session = self.mle_session
        return {
            "pytest-mlebench.session": session.session_id,
            "pytest-mlebench.worker": session.worker,
        }

    def sandbox_job(self, spec: SandboxSpec) -> SandboxJob:
        """The job the executor carries out (resumed from :attr:`resume` when set); a kind
        adds its own with ``replace``."""
        job = SandboxJob(
            spec=spec,
            agent=self.agent,
            instructions=Instructions(
                self.time_limit, self.integrity.watermark, self.instruction_body()
            ),
            run_dir=self.run_dir,
            on_sandbox=self._sandbox_made,
            checkpoint=self.checkpoint_plan(),
        )
        return job.resuming(self.resume) if self.resume is not None else job

    def _sandbox_made(self, sandbox: SandboxFacts) -> None:
        self.sandbox = sandbox

    def _sandbox_phase(self) -> SandboxOutcome:
        """The agent's part of the run, wherever the session's executor runs it."""
        agent = self.agent
        if agent.privileged and not self.mle_session.settings.privileged:
            raise AgentError(
                f"agent {agent.name!r} asks for a privileged sandbox; allow it explicitly with "
                "--mle-privileged yes"
            )
        self.gateway = run_gateway(agent, self.mle_session, self.run_dir)
        job = self.sandbox_job(self.sandbox_spec())
        try:
            outcome = self.started.executor.run(job)
        finally:
            self.phase_ended()
        self.sandbox, self.node, self.gateway = outcome.sandbox, outcome.node, outcome.gateway
        self.resumed = outcome.resumed
        if outcome.evidence is not None:
            self.gpu_usage = outcome.evidence.gpu_usage
        return outcome

    def phase_notes(self, outcome: SandboxOutcome) -> list[str | None]:
        """What the record says of the agent's process: a timeout, a failed exit, an OOM."""
        result = outcome.exec_result
        return [
            f"timeout after {self.time_limit} s" if result.timed_out else None,
            exit_note(result),
        ]

    def stop_reason(self) -> str | None:
        """The agent's own line on why it stopped (``LOGS_DIR/stop_reason.txt``)."""
        return read_stop_reason(self.run_dir / "logs")

    def _record(
        self,
        result: Outcome,
        reason: str | None,
        outcome: SandboxOutcome | None = None,
        judgement: Judgement | None = None,
        failure_class: FailureClass | None = None,
    ) -> RunRecord:
        record = subject_record(
            self.mle_session,
            self.subject,
            self.case,
            test_id=self.test_id,
            outcome=result,
            reason=reason,
            started_at=self.started_at,
            run_id=self.run_id,
            run_dir=str(self.run_dir),
            time_limit=self.time_limit,
            resources=asdict(outcome.grant if outcome else self.resources()),
            exec_result=outcome.exec_result if outcome else None,
            report=judgement.grade if judgement else None,
            calls=outcome.calls if outcome else [],
            sandbox=self.sandbox,
            gateway=self.gateway.summary() if self.gateway is not None else None,
            integrity=judgement.integrity if judgement else None,
            node=self.node,
            engineering=judgement.result if judgement else None,
            gpu_usage=self.gpu_usage,
            stop_reason=self.stop_reason(),
        )
        resumed = self.resumed or (self.resume.entry() if self.resume is not None else None)
        return replace(
            record,
            failure_class=failure_class,
            attempts=list(self.attempts),
            resumed=resumed,
            anytime=judgement.anytime if judgement else None,
        )

    def hand_over(self, record: RunRecord) -> None:
        """Keep ``record`` (the run's ``record.json``, a line of the results file) and tell the
        ``pytest_mlebench_graded`` hook."""
        if self.on_record is not None:
            self.on_record(record)
        self.hooks.pytest_mlebench_graded(record=record)
        keep_run_files(record, self.run_dir, self.mle_session.settings.results_path)
