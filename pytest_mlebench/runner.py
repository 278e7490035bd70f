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

from pytest_mlebench.agents.base import Agent
from pytest_mlebench.data import PreparedData
from pytest_mlebench.errors import AgentError
from pytest_mlebench.gate import gate_failure
from pytest_mlebench.gateway import Budget, Gateway, load_price_table
from pytest_mlebench.grading import GradeReport, grade_submission
from pytest_mlebench.integrity.checks import withheld_gate
from pytest_mlebench.integrity.model import IntegrityReport
from pytest_mlebench.integrity.monitor import IntegrityRun, integrity_context
from pytest_mlebench.registry import Competition
from pytest_mlebench.report.mlebench_compat import grade_json
from pytest_mlebench.results import Outcome, RunRecord, append_record
from pytest_mlebench.sandbox.base import ExecResult, ResourceGrant, SandboxFacts, SandboxSpec
from pytest_mlebench.sandbox.gpus import gpus_wanted
from pytest_mlebench.sandbox.network import BRIDGE_WARNING
from pytest_mlebench.sandbox_phase import (
    Instructions,
    SandboxJob,
    SandboxOutcome,
    hidden_host_paths,
)
from pytest_mlebench.session import MLEBenchSession
from pytest_mlebench.timestamps import utc_timestamp


@dataclass(frozen=True)
class RunCase:
    """One parametrisation of the benchmark test: a competition and a seed."""

    competition_id: str
    seed: int

    def test_id(self, seeds: int) -> str:
        return self.competition_id if seeds == 1 else f"{self.competition_id}-s{self.seed}"


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
        return self.session.settings.time_limit or self.competition.time_limit

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
            outcome = self._sandbox_phase(self.session.agent)
            report = self._grade(outcome.submission)
            context = integrity_context(
                self.session.settings, self.competition, self.sandbox, self.session.agent
            )
            integrity = self.integrity.check(outcome.calls, context, report.medal)
        except Exception as exc:
            self._write(self._record("error", f"{type(exc).__name__}: {exc}"))
            raise
        require = self.session.settings.require
        gate = gate_failure(report, require) or withheld_gate(integrity, require)
        notes = [
            f"timeout after {self.time_limit} s" if outcome.exec_result.timed_out else None,
            exit_note(outcome.exec_result),
            self._budget_note(),
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

    def _spec(self) -> SandboxSpec:
        """The run's sandbox as this machine sees it (the executor adds GPUs and the validator)."""
        network = self.session.network
        return SandboxSpec(
            run_id=self.run_id,
            competition_id=self.competition.id,
            seed=self.case.seed,
            public_dir=self.prepared.public,
            time_limit=self.time_limit,
            resources=self.resources(),
            network=network.mode,  # type: ignore[arg-type]
            allowed_hosts=network.hosts,
            gateway=self.gateway,
            log_dir=self.run_dir,
            env=self.integrity.env,
            labels={
                "pytest-mlebench.session": self.session.session_id,
                "pytest-mlebench.worker": self.session.worker,
            },
            hidden_paths=hidden_host_paths(self.session.settings.data_dir),
            expiry_grace=self.session.settings.sandbox_grace,
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
        if agent.privileged and not self.session.settings.privileged:
            raise AgentError(
                f"agent {agent.name!r} asks for a privileged sandbox; allow it explicitly with "
                "--mle-privileged yes"
            )
        self.gateway = self._make_gateway(agent)
        outcome = self.session.executor(self.hooks).run(self._job(agent))
        self.sandbox, self.node, self.gateway = outcome.sandbox, outcome.node, outcome.gateway
        if outcome.evidence is not None:
            self.integrity.evidence = outcome.evidence
        return outcome

    def _grade(self, submission: Path) -> GradeReport:
        report = grade_submission(submission, self.competition, self.prepared.answers)
        (self.run_dir / "grade.json").write_text(grade_json(report), "utf-8")
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
        (self.run_dir / "record.json").write_text(record.to_json(), "utf-8")
        append_record(self.session.settings.results_path, record)


def exit_note(result: ExecResult) -> str | None:
    """``agent exited with code N: <its last output line>`` for a failed agent, else ``None``.

    An agent that cannot start (a package missing in its image, a bad argument) says why on its
    last line; the record carries it so the reason is read without opening the log.
    """
    if result.timed_out or result.exit_code in (0, None):
        return None
    lines = [line.strip() for line in result.output_tail.splitlines() if line.strip()]
    last = lines[-1][:300] if lines else "no output"
    return f"agent exited with code {result.exit_code}: {last}"


def make_record(
    session: MLEBenchSession,
    competition: Competition,
    *,
    test_id: str,
    seed: int,
    outcome: Outcome,
    reason: str | None,
    started_at: str | None = None,
    run_id: str | None = None,
    run_dir: str | None = None,
    time_limit: float | None = None,
    resources: dict[str, Any] | None = None,
    exec_result: ExecResult | None = None,
    report: GradeReport | None = None,
    calls: list[dict[str, Any]] | None = None,
    sandbox: SandboxFacts | None = None,
    gateway: dict[str, Any] | None = None,
    integrity: IntegrityReport | None = None,
    node: dict[str, Any] | None = None,
) -> RunRecord:
    """A :class:`RunRecord` for ``competition`` in ``session`` (also for skips and errors).

    ``sandbox`` is the sandbox the run used, when one was made: the record names its backend
    and isolation (a sandbox from ``pytest_mlebench_make_sandbox`` included); without one, the
    session's backend stands in.
    """
    network = session.network
    isolated = sandbox.isolated if sandbox is not None else session.backend != "local"
    return RunRecord(
        session_id=session.session_id,
        run_id=run_id or f"{competition.id}-s{seed}-{uuid.uuid4().hex[:8]}",
        test_id=test_id,
        competition_id=competition.id,
        seed=seed,
        agent=session.agent.name,
        outcome=outcome,
        reason=reason,
        sandbox=sandbox.backend if sandbox is not None else session.backend,
        isolated=isolated and network.mode != "bridge",
        started_at=started_at or utc_timestamp(),
        finished_at=utc_timestamp(),
        time_limit=time_limit,
        network=str(network),
        resources=resources or {},
        wall_seconds=exec_result.wall_seconds if exec_result else None,
        cpu_seconds=exec_result.cpu_seconds if exec_result else None,
        peak_memory_bytes=exec_result.peak_memory_bytes if exec_result else None,
        exit_code=exec_result.exit_code if exec_result else None,
        timed_out=exec_result.timed_out if exec_result else False,
        oom_killed=exec_result.oom_killed if exec_result else False,
        grade=report,
        validation_calls=calls or [],
        splits=sorted(competition.splits),
        complexity=competition.complexity,
        modality=competition.modality,
        run_dir=run_dir,
        worker=session.worker,
        gateway=gateway,
        egress=_egress_entry(network.mode, sandbox),
        integrity=integrity,
        image=getattr(sandbox, "image", None),
        node=node,
    )


def _egress_entry(mode: str, sandbox: SandboxFacts | None) -> dict[str, Any] | None:
    """The record's ``egress``: the proxy's account (``allow``), a warning (``bridge``), or none."""
    if mode == "bridge":
        return {"mode": "bridge", "isolated": False, "warning": BRIDGE_WARNING}
    return sandbox.egress_summary() if sandbox is not None and mode == "allow" else None
