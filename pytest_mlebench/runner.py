"""One benchmark run, end to end: sandbox → agent under the deadline → copy out → grade → record.

:class:`BenchmarkRun` is what the benchmark test's body drives. It always writes a record — also
when the sandbox or agent breaks (outcome ``error``) — and keeps the run's artifacts (submission,
agent log, grade report) in ``<results dir>/runs/<run id>/``.
"""

from __future__ import annotations

import uuid
from contextlib import nullcontext
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench import graders
from pytest_mlebench.agents.base import Agent, AgentTask
from pytest_mlebench.data import PreparedData
from pytest_mlebench.errors import AgentError
from pytest_mlebench.gateway import Budget, Gateway, load_price_table
from pytest_mlebench.grading import GradeReport, grade_submission
from pytest_mlebench.integrity.checks import withheld_gate
from pytest_mlebench.integrity.monitor import IntegrityRun, integrity_context
from pytest_mlebench.records.build import (
    RunContext,
    exit_note,
    keep_run_files,
    write_grade_file,
)
from pytest_mlebench.records.build import make_record as build_record
from pytest_mlebench.records.requirement import requirement_failure
from pytest_mlebench.records.run_record import Outcome, RunRecord
from pytest_mlebench.records.verdict import IntegrityReport
from pytest_mlebench.registry import Competition
from pytest_mlebench.sandbox import create_sandbox
from pytest_mlebench.sandbox.base import (
    ContractPaths,
    ExecResult,
    ResourceGrant,
    Sandbox,
    SandboxFacts,
    SandboxSpec,
)
from pytest_mlebench.sandbox.gpus import GpuPool, gpus_wanted
from pytest_mlebench.sandbox.network import BRIDGE_WARNING
from pytest_mlebench.sandbox.plan import engine_ready
from pytest_mlebench.session import MLEBenchSession
from pytest_mlebench.timestamps import utc_timestamp
from pytest_mlebench.values.time_limit import run_time_limit

INSTRUCTIONS = Path(__file__).with_name("instructions.md")
MAX_ARTIFACT_BYTES = 100 * 1024**2  # per file of the agent's logs/ and code/ kept with the run


@dataclass(frozen=True)
class RunCase:
    """One parametrisation of the benchmark test: a competition and a seed."""

    competition_id: str
    seed: int

    def test_id(self, seeds: int) -> str:
        return self.competition_id if seeds == 1 else f"{self.competition_id}-s{self.seed}"


CREDENTIAL_FOLDERS = (".kaggle", ".ssh", ".aws", ".docker", ".config", ".netrc")


def hidden_host_paths(data_dir: Path) -> tuple[Path, ...]:
    """Host folders an agent must never see: the data cache (answers) and credentials."""
    home = Path.home()
    return (data_dir, *(home / name for name in CREDENTIAL_FOLDERS))


class BenchmarkRun:
    """Drives one run and records it. Create one per test; call :meth:`execute` once."""

    def __init__(
        self,
        session: MLEBenchSession,
        competition: Competition,
        prepared: PreparedData,
        case: RunCase,
        test_id: str,
        pluginmanager: pytest.PytestPluginManager,
    ) -> None:
        self.session = session
        self.competition = competition
        self.prepared = prepared
        self.case = case
        self.test_id = test_id
        self.hooks = pluginmanager.hook
        self.run_id = f"{competition.id}-s{case.seed}-{uuid.uuid4().hex[:8]}"
        self.run_dir = session.settings.results_path.parent / "runs" / self.run_id
        self.started_at = utc_timestamp()
        self.sandbox: SandboxFacts | None = None
        self.node: dict[str, Any] | None = None  # the Ray node that ran it (--mle-ray)
        self.gateway: Gateway | None = None
        self.record: RunRecord | None = None
        self.integrity = IntegrityRun(self.run_dir, session.agent)

    @property
    def time_limit(self) -> int:
        return run_time_limit(self.session.settings.time_limit, self.competition)

    def resources(self) -> ResourceGrant:
        settings, wanted = self.session.settings, self.competition.resources
        return ResourceGrant(
            cpus=settings.cpus or wanted.cpus,
            memory=settings.memory or wanted.memory,
            shm=settings.shm or wanted.shm,
            pids=settings.pids or wanted.pids,
        )

    def gpu_count(self) -> int:
        """GPUs this run's sandbox leases (``--mle-gpus-per-sandbox`` or the competition's)."""
        return gpus_wanted(self.competition.resources.gpus, self.session.settings.gpus_per_sandbox)

    def execute(self) -> RunRecord:
        """Run the agent and grade it; the record is written before this returns or raises."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        try:
            exec_result, calls, grant = self._run_agent(self.session.agent)
            report = self._grade()
            context = integrity_context(self.session.integrity, self.competition, self.sandbox)
            integrity = self.integrity.check(calls, context, report.medal)
        except Exception as exc:
            self._write(self._record("error", f"{type(exc).__name__}: {exc}"))
            raise
        require = self.session.settings.require
        gate = requirement_failure(report, require) or withheld_gate(integrity, require)
        notes = [
            f"timeout after {self.time_limit} s" if exec_result.timed_out else None,
            exit_note(exec_result),
            self._budget_note(),
            gate,
        ]
        reason = "; ".join(note for note in notes if note) or None
        record = self._record(
            "failed" if gate else "passed",
            reason,
            exec_result=exec_result,
            report=report,
            calls=calls,
            grant=grant,
            integrity=integrity,
        )
        self._write(record)
        return record

    def _budget_note(self) -> str | None:
        if self.gateway is None or not self.gateway.ledger.budget_exhausted:
            return None
        return "LLM budget exhausted (budget_exhausted); the submission so far was graded"

    def _make_gateway(self, agent: Agent) -> Gateway | None:
        """The run's LLM gateway when the agent names providers (not started yet)."""
        config = getattr(agent, "gateway", None)
        if config is None or not config.providers:
            return None
        settings = self.session.settings
        return Gateway(
            config.with_upstreams(dict(settings.gateway_upstreams)),
            load_price_table(settings.price_table),
            self.run_dir / "gateway.jsonl",
            budget=Budget(tokens=settings.token_budget, cost_usd=settings.cost_budget),
        )

    def _spec(self, gpus: tuple[str, ...]) -> SandboxSpec:
        network = self.session.network
        return SandboxSpec(
            run_id=self.run_id,
            competition_id=self.competition.id,
            seed=self.case.seed,
            public_dir=self.prepared.public,
            time_limit=self.time_limit,
            resources=replace(self.resources(), gpus=gpus),
            network=network.mode,  # type: ignore[arg-type]
            allowed_hosts=network.hosts,
            gateway=self.gateway,
            log_dir=self.run_dir,
            validator=self._validate,
            env=self.integrity.env,
            labels={
                "pytest-mlebench.session": self.session.session_id,
                "pytest-mlebench.worker": self.session.worker,
            },
            hidden_paths=hidden_host_paths(self.session.settings.data_dir),
            expiry_grace=self.session.settings.sandbox_grace,
        )

    def _validate(self, path: Path) -> graders.ScoreResult:
        return graders.validate_submission(path, self.prepared.answers, self.competition.submission)

    def _run_agent(self, agent: Agent) -> tuple[ExecResult, list[dict[str, Any]], ResourceGrant]:
        settings, plan = self.session.settings, self.session.plan
        if agent.privileged and not settings.privileged:
            raise AgentError(
                f"agent {agent.name!r} asks for a privileged sandbox; allow it explicitly with "
                "--mle-privileged yes"
            )
        self.gateway = self._make_gateway(agent)
        if settings.ray:
            from pytest_mlebench.cluster.remote import run_remotely

            return run_remotely(self, agent)
        pool = GpuPool(plan.gpu_lease_dir, plan.gpus) if plan.gpu_lease_dir else None
        with pool.lease(self.gpu_count()) if pool else nullcontext(()) as gpus:
            spec = self._spec(tuple(gpus))
            sandbox = self.sandbox = self._make_sandbox(spec, privileged=agent.privileged)
            instructions = self._write_instructions(sandbox.paths)
            with sandbox:
                sandbox.copy_in(instructions, sandbox.paths.instructions)
                with self.integrity.watch(sandbox):
                    result = self._drive(agent, sandbox)
                calls = [asdict(call) for call in sandbox.validation_calls]
        return result, calls, spec.resources

    def _write_instructions(self, paths: ContractPaths) -> Path:
        """Render the instructions for ``paths`` once, into the run folder (copied in once)."""
        instructions = self.run_dir / "instructions.md"
        text = self.integrity.instructions(render_instructions(paths, self.time_limit))
        instructions.write_text(text, "utf-8")
        return instructions

    def _drive(self, agent: Agent, sandbox: Sandbox) -> ExecResult:
        """Inside a started sandbox: agent run, submission and logs out."""
        task = AgentTask(
            competition_id=self.competition.id,
            seed=self.case.seed,
            time_limit=self.time_limit,
            log_path=self.run_dir / "agent.log",
        )
        return drive_agent(agent, sandbox, task, self.run_dir)

    def _make_sandbox(self, spec: SandboxSpec, *, privileged: bool) -> Sandbox:
        settings, plan = self.session.settings, self.session.plan
        custom: Sandbox | None = self.hooks.pytest_mlebench_make_sandbox(
            spec=spec, backend=plan.backend, settings=settings
        )
        if custom is not None:
            return custom
        agent = self.session.agent
        image = engine_ready(
            plan, self.session.session_id, getattr(agent, "image", None), agent.name
        )
        return create_sandbox(plan.backend, spec, image=image, privileged=privileged)

    def _grade(self) -> GradeReport:
        report = grade_submission(
            self.run_dir / "submission.csv", self.competition, self.prepared.answers
        )
        write_grade_file(self.run_dir, report)
        return report

    def _record(
        self,
        outcome: Outcome,
        reason: str | None,
        *,
        exec_result: ExecResult | None = None,
        report: GradeReport | None = None,
        calls: list[dict[str, Any]] | None = None,
        grant: ResourceGrant | None = None,
        integrity: IntegrityReport | None = None,
    ) -> RunRecord:
        return make_record(
            self.session,
            self.competition,
            test_id=self.test_id,
            seed=self.case.seed,
            outcome=outcome,
            reason=reason,
            started_at=self.started_at,
            run_id=self.run_id,
            run_dir=str(self.run_dir),
            time_limit=self.time_limit,
            resources=asdict(grant or self.resources()),
            exec_result=exec_result,
            report=report,
            calls=calls or [],
            sandbox=self.sandbox,
            gateway=self.gateway.summary() if self.gateway is not None else None,
            integrity=integrity,
            node=self.node,
        )

    def _write(self, record: RunRecord) -> None:
        self.record = record
        self.hooks.pytest_mlebench_graded(record=record)
        keep_run_files(record, self.run_dir, self.session.settings.results_path)


def make_record(session: MLEBenchSession, competition: Competition, **facts: Any) -> RunRecord:
    """The record of a run of ``competition`` in ``session`` (:func:`records.build.make_record`)."""
    return build_record(run_context(session), competition, **facts)


def run_context(session: MLEBenchSession) -> RunContext:
    """The session's facts every record carries, as plain values."""
    network = session.network
    return RunContext(
        session_id=session.session_id,
        agent=session.agent.name,
        worker=session.worker,
        backend=session.backend,
        network=str(network),
        network_mode=network.mode,
        bridge_warning=BRIDGE_WARNING,
    )


def drive_agent(agent: Agent, sandbox: Sandbox, task: AgentTask, run_dir: Path) -> ExecResult:
    """In a started sandbox: run the agent, then copy its submission, logs and code to
    ``run_dir`` (also on a Ray node, :mod:`pytest_mlebench.cluster.node`)."""
    result = agent.run(sandbox, task)
    sandbox.copy_out(sandbox.paths.submission_file, run_dir / "submission.csv")
    for folder in ("logs", "code"):
        source = getattr(sandbox.paths, folder)
        sandbox.copy_out(source, run_dir / folder, max_file_bytes=MAX_ARTIFACT_BYTES)
    return result


def render_instructions(paths: ContractPaths, time_limit: int) -> str:
    """The agent's instructions with the sandbox's contract paths and the time limit filled in."""
    return INSTRUCTIONS.read_text("utf-8").format(
        data=paths.data,
        submission_file=paths.submission_file,
        validate=paths.validate,
        code=paths.code,
        logs=paths.logs,
        time_limit=time_limit,
    )
