"""One benchmark run, end to end: the sandbox phase → grade → integrity checks → record.

:class:`BenchmarkRun` is what the benchmark test's body drives. It builds the run's
:class:`~pytest_mlebench.sandbox_phase.SandboxJob`, has the session's executor carry it out (on
this machine or on a Ray node: the runner does not ask which), grades the submission that came
back, checks the run's integrity and records it. It always writes a record — also when the
sandbox or agent breaks (outcome ``error``) — and keeps the run's artifacts (submission, agent
log, grade report) in ``<results dir>/runs/<run id>/``.
"""

from __future__ import annotations

import uuid
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.agents.protocol import Agent
from pytest_mlebench.agents.stop_reason import read_stop_reason
from pytest_mlebench.data import PreparedData
from pytest_mlebench.errors import AgentError
from pytest_mlebench.gateway import Budget, Gateway, load_price_table
from pytest_mlebench.gateway.service import gateway_service
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
from pytest_mlebench.sandbox.gpus import gpus_wanted
from pytest_mlebench.sandbox.interface import ExecResult, ResourceGrant, SandboxFacts, SandboxSpec
from pytest_mlebench.sandbox.network import BRIDGE_WARNING
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
from pytest_mlebench.values.time_limit import run_time_limit
from pytest_mlebench.variants.public_view import variant_description, variant_public


@dataclass(frozen=True)
class RunCase:
    """One parametrisation of the benchmark test: a competition (or task) and a seed.

    ``agent`` names the run's own agent where one session runs several: ``--mle-agent 'cheat:*'``
    gives each known cheat of an engineering task its own case (``docs/engineering.md``).
    """

    competition_id: str
    seed: int
    agent: str | None = None

    def test_id(self, seeds: int) -> str:
        base = self.competition_id if seeds == 1 else f"{self.competition_id}-s{self.seed}"
        return base if self.agent is None else f"{base}-{self.agent}"


class BenchmarkRun:
    """Drives one run and records it. Create one per test; call :meth:`execute` once."""

    def __init__(
        self,
        mle_session: MLEBenchSession,
        competition: Competition,
        prepared: PreparedData,
        case: RunCase,
        test_id: str,
        pluginmanager: pytest.PytestPluginManager,
    ) -> None:
        self.mle_session = mle_session
        self.competition = competition
        self.prepared = prepared
        self.case = case
        self.test_id = test_id
        self.hooks = pluginmanager.hook
        self.run_id = f"{competition.id}-s{case.seed}-{uuid.uuid4().hex[:8]}"
        self.run_dir = mle_session.settings.results_path.parent / "runs" / self.run_id
        self.started_at = utc_timestamp()
        self.sandbox: SandboxFacts | None = None
        self.node: dict[str, Any] | None = None  # the Ray node that ran it (--mle-ray)
        self.gateway: Gateway | None = None
        self.record: RunRecord | None = None
        self.gpu_usage: dict[str, Any] | None = None  # what the GPU sampler saw (granted GPUs)
        self.stop_reason: str | None = None  # the agent's own line (LOGS_DIR/stop_reason.txt)
        self.integrity = IntegrityRun(self.run_dir, mle_session.agent)

    @property
    def time_limit(self) -> int:
        return run_time_limit(self.mle_session.settings.time_limit, self.competition)

    def resources(self) -> ResourceGrant:
        settings, wanted = self.mle_session.settings, self.competition.resources
        return ResourceGrant(
            cpus=settings.cpus or wanted.cpus,
            memory=settings.memory or wanted.memory,
            shm=settings.shm or wanted.shm,
            pids=settings.pids or wanted.pids,
        )

    def gpu_count(self) -> int:
        """GPUs this run's sandbox leases (``--mle-gpus-per-sandbox`` or the competition's)."""
        return gpus_wanted(
            self.competition.resources.gpus, self.mle_session.settings.gpus_per_sandbox
        )

    def execute(self) -> RunRecord:
        """Run the agent and grade it; the record is written before this returns or raises."""
        self.run_dir.mkdir(parents=True, exist_ok=True)
        try:
            outcome = self._sandbox_phase(self.mle_session.agent)
            self.stop_reason = read_stop_reason(self.run_dir / "logs")
            report = self._grade(outcome.submission)
            context = integrity_context(self.mle_session.integrity, self.competition, self.sandbox)
            integrity = self.integrity.check(outcome.calls, context, report.medal)
        except Exception as exc:
            self._write(self._record("error", f"{type(exc).__name__}: {exc}"))
            raise
        require = self.mle_session.settings.require
        gate = requirement_failure(report, require) or withheld_gate(integrity, require)
        notes = [
            f"timeout after {self.time_limit} s" if outcome.exec_result.timed_out else None,
            exit_note(outcome.exec_result),
            self._budget_note(),
            f"agent stopped: {self.stop_reason}" if gate and self.stop_reason else None,
            gate,
        ]
        reason = "; ".join(note for note in notes if note) or None
        record = self._record(
            "failed" if gate else "passed",
            reason,
            exec_result=outcome.exec_result,
            report=report,
            calls=outcome.calls,
            grant=outcome.grant,
            integrity=integrity,
        )
        self._write(record)
        return record

    def _budget_note(self) -> str | None:
        if self.gateway is None or not self.gateway.ledger.budget_exhausted:
            return None
        return "LLM budget exhausted (budget_exhausted); the submission so far was graded"

    def _make_gateway(self, agent: Agent) -> Gateway | None:
        return run_gateway(agent, self.mle_session, self.run_dir)

    def public_dir(self) -> Path:
        """The public folder the agent sees: the prepared one, or its view for the session's
        description variant (``--mle-description``, :mod:`pytest_mlebench.variants`)."""
        variant = self.mle_session.settings.description
        description = variant_description(self.competition.folder, variant)
        return variant_public(self.prepared.public, self.prepared.manifest, description, variant)

    def _spec(self) -> SandboxSpec:
        """The run's sandbox as this machine sees it (the executor adds GPUs and the validator)."""
        settings = self.mle_session.settings
        return SandboxSpec(
            run_id=self.run_id,
            competition_id=self.competition.id,
            seed=self.case.seed,
            public_dir=self.public_dir(),
            limits=Limits(self.time_limit, self.resources(), settings.sandbox_grace),
            network=self.mle_session.network,
            services=Services.of(gateway_service(self.gateway)),
            log_dir=self.run_dir,
            env=self.integrity.env,
            labels={
                "pytest-mlebench.session": self.mle_session.session_id,
                "pytest-mlebench.worker": self.mle_session.worker,
            },
            hidden_paths=hidden_host_paths(settings.data_dir),
        )

    def _job(self, agent: Agent) -> SandboxJob:
        return SandboxJob(
            spec=self._spec(),
            agent=agent,
            instructions=Instructions(self.time_limit, self.integrity.nonce),
            run_dir=self.run_dir,
            answers=self.prepared.answers,
            submission=self.competition.submission,
            gpus=self.gpu_count(),
            on_sandbox=self._sandbox_made,
        )

    def _sandbox_made(self, sandbox: SandboxFacts) -> None:
        self.sandbox = sandbox

    def _sandbox_phase(self, agent: Agent) -> SandboxOutcome:
        """The agent's part of the run, wherever the session's executor runs it."""
        if agent.privileged and not self.mle_session.settings.privileged:
            raise AgentError(
                f"agent {agent.name!r} asks for a privileged sandbox; allow it explicitly with "
                "--mle-privileged yes"
            )
        self.gateway = self._make_gateway(agent)
        outcome = self.mle_session.executor(self.hooks).run(self._job(agent))
        self.sandbox, self.node, self.gateway = outcome.sandbox, outcome.node, outcome.gateway
        if outcome.evidence is not None:
            self.integrity.evidence = outcome.evidence
            self.gpu_usage = outcome.evidence.get("gpu_usage")
        return outcome

    def _grade(self, submission: Path) -> GradeReport:
        report = grade_submission(submission, self.competition, self.prepared.answers)
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
            self.mle_session,
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
            gpu_usage=self.gpu_usage,
            stop_reason=self.stop_reason,
        )

    def _write(self, record: RunRecord) -> None:
        self.record = record
        self.hooks.pytest_mlebench_graded(record=record)
        keep_run_files(record, self.run_dir, self.mle_session.settings.results_path)


def run_gateway(agent: Agent, mle_session: MLEBenchSession, run_dir: Path) -> Gateway | None:
    """A run's LLM gateway when ``agent`` names providers (not started yet), its transcript in
    ``run_dir``; shared by competition and engineering runs."""
    config = getattr(agent, "gateway", None)
    if config is None or not config.providers:
        return None
    settings = mle_session.settings
    return Gateway(
        config.with_upstreams(dict(settings.gateway_upstreams)),
        load_price_table(settings.price_table),
        run_dir / "gateway.jsonl",
        budget=Budget(tokens=settings.token_budget, cost_usd=settings.cost_budget),
    )


def make_record(mle_session: MLEBenchSession, competition: Competition, **facts: Any) -> RunRecord:
    """The record of a run of ``competition`` in ``session`` (:func:`records.build.make_record`)."""
    return build_record(run_context(mle_session), competition, **facts)


def run_context(mle_session: MLEBenchSession) -> RunContext:
    """The session's facts every record carries, as plain values."""
    network = mle_session.network
    return RunContext(
        session_id=mle_session.session_id,
        agent=mle_session.agent.name,
        worker=mle_session.worker,
        backend=mle_session.backend,
        network=str(network),
        network_mode=network.mode,
        bridge_warning=BRIDGE_WARNING,
        description=mle_session.settings.description,
    )
