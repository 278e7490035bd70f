"""One engineering run, end to end: agent phase → verifier → score → record.

:class:`EngineeringRun` is the body of the engineering test. The agent phase is the competition
runner's sandbox phase (:mod:`pytest_mlebench.sandbox_phase`, through the session's executor)
with a workspace: the prepared workspace is copied to ``WORK_DIR``, the agent runs under the
harness deadline and the integrity watch, every agent process is killed, ``WORK_DIR`` is copied
out. The hidden verifier then runs where no agent process can reach it
(:mod:`pytest_mlebench.sandbox.verifier_phase`), the harness adds its own evidence checks
(``H-*``), and the score decides the outcome: *failed* for a failed gate, a score below
``--mle-require-score``, or verifier results the host rejected (killed, broken, past its limit,
not sealed with this run's key: :mod:`pytest_mlebench.eng_verify`); *error* when the engine broke
(after one retry). A record is always written, with its ``engineering`` block.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import asdict, replace
from typing import Any

import pytest

from pytest_mlebench.agents import load_agent
from pytest_mlebench.agents.protocol import Agent
from pytest_mlebench.agents.stop_reason import read_stop_reason
from pytest_mlebench.eng.evidence import (
    audit_check,
    find_secrets,
    llm_check,
    secrets_check,
    wall_check,
)
from pytest_mlebench.eng.evidence_safety import (
    contract_check,
    contract_flags,
    egress_check,
    egress_flags,
    premade_deliverables,
    watermark_check,
)
from pytest_mlebench.eng.evidence_usage import cpu_check, memory_check
from pytest_mlebench.eng.prepared import PreparedTask
from pytest_mlebench.eng.scoring import (
    GATE_WORDS,
    CheckResult,
    TaskScore,
    engineering_block,
    score_run,
)
from pytest_mlebench.eng.task import EngTask
from pytest_mlebench.eng_builds import TaskBuilds
from pytest_mlebench.eng_images import HiddenFilesInImage, session_profile_image
from pytest_mlebench.eng_verify import Verified, verify
from pytest_mlebench.errors import AgentError, SandboxError
from pytest_mlebench.gateway import Gateway
from pytest_mlebench.gateway.service import gateway_service
from pytest_mlebench.graders import SubmissionSpec
from pytest_mlebench.integrity.checks import CheckContext
from pytest_mlebench.records.build import exit_note, keep_run_files, make_record
from pytest_mlebench.records.run_record import Outcome, RunRecord
from pytest_mlebench.records.verdict import IntegrityReport
from pytest_mlebench.runner import RunCase, run_context, run_gateway
from pytest_mlebench.sandbox.build_endpoint import builder_service
from pytest_mlebench.sandbox.interface import ResourceGrant, SandboxFacts, SandboxSpec
from pytest_mlebench.sandbox.sandbox_spec import Limits
from pytest_mlebench.sandbox.services import Services
from pytest_mlebench.sandbox.verifier_phase import VerifierJob
from pytest_mlebench.sandbox_phase import Instructions, SandboxJob, SandboxOutcome
from pytest_mlebench.sandbox_phase import hidden_host_paths as hidden_paths
from pytest_mlebench.session import MLEBenchSession
from pytest_mlebench.timestamps import utc_timestamp

# An engineering run has no submission; the job's validator fields stay unused.
NO_SUBMISSION = SubmissionSpec(id_column="id", target_columns=("value",), metric="accuracy")
VERIFIER_PROFILE = "eng"


class EngineeringRun:
    """Drives one engineering run and records it; create one per test, call :meth:`execute`."""

    def __init__(
        self,
        mle_session: MLEBenchSession,
        task: EngTask,
        prepared: PreparedTask,
        case: RunCase,
        test_id: str,
        pluginmanager: pytest.PytestPluginManager,
    ) -> None:
        self.mle_session = mle_session
        self.task = task
        self.prepared = prepared
        self.case = case
        self.test_id = test_id
        self.hooks = pluginmanager.hook
        self.run_id = f"{task.id}-s{case.seed}-{uuid.uuid4().hex[:8]}"
        self.run_dir = mle_session.settings.results_path.parent / "runs" / self.run_id
        self.started_at = utc_timestamp()
        self.sandbox: SandboxFacts | None = None
        self.gateway: Gateway | None = None
        self.record: RunRecord | None = None
        self.start_ns = time.time_ns()
        # the case's own agent ('cheat:*' gives each cheat a case), else the session's
        self.agent = mle_session.agent if case.agent is None else load_agent(case.agent)
        self.builds = TaskBuilds(task.builder, self.run_id, self._labels())

    @property
    def time_limit(self) -> int:
        return self.mle_session.settings.time_limit or self.task.time_limit

    def resources(self) -> ResourceGrant:
        settings, wanted = self.mle_session.settings, self.task.resources
        return ResourceGrant(
            cpus=settings.cpus or wanted.cpus,
            memory=settings.memory or wanted.memory,
            shm=settings.shm,
            pids=settings.pids,
        )

    def execute(self) -> RunRecord:
        """Run the agent, the verifier and the scoring; the record is written before this
        returns or raises (outcome ``error`` when the verifier or the engine broke)."""
        from pytest_mlebench.integrity.monitor import IntegrityRun

        self.run_dir.mkdir(parents=True, exist_ok=True)
        self._resolve_images()
        integrity = IntegrityRun(self.run_dir, self.agent)
        try:
            outcome = self._agent_phase(self.agent, integrity)
            if outcome.evidence is not None:
                integrity.evidence = outcome.evidence
            report = integrity.check(outcome.calls, self._check_context(), None)
            verified = self._verify(integrity)
        except Exception as exc:
            self._write(self._record("error", f"{type(exc).__name__}: {exc}"))
            raise
        harness = self._harness_checks(outcome, report, integrity.evidence)
        score = score_run(self.task, verified.document, harness)
        passed = verified.rejected is None and score.passed(self.mle_session.settings.require_score)
        block = engineering_block(self.task, score, passed, verified.facts)
        block["builds"] = self.builds.record(outcome.evidence)
        notes = [
            verified.rejected,
            f"timeout after {self.time_limit} s" if outcome.exec_result.timed_out else None,
            exit_note(outcome.exec_result),
            None
            if verified.rejected and not score.failed_gates
            else self._gate_note(score, passed),
        ]
        reason = "; ".join(note for note in notes if note) or None
        record = self._record(
            "passed" if passed else "failed",
            reason,
            outcome=outcome,
            integrity=report,
            engineering=block,
        )
        self._write(record)
        return record

    def _resolve_images(self) -> None:
        """Docker: the agent's and the verifier's images, built once per session; a run whose
        image cannot be built (no registry for Debian's packages, offline) is skipped with the
        command that builds it."""
        self.agent_image: str | None = None
        self.verifier_image: str | None = None
        if self.mle_session.backend != "docker":
            return
        profile = self.task.image
        try:
            if profile != "base":
                self.agent_image = session_profile_image(self.mle_session, profile)
            profile = VERIFIER_PROFILE
            self.verifier_image = session_profile_image(self.mle_session, profile)
        except HiddenFilesInImage as exc:
            self._write(self._record("error", str(exc)))
            raise
        except SandboxError as exc:
            reason = (
                f"the {profile} image is not available ({exc}); build it where Debian's "
                f"registry answers: mlebench sandbox build --profile {profile}"
            )
            self._write(self._record("skipped", reason))
            pytest.skip(reason)

    def _gate_note(self, score: TaskScore, passed: bool) -> str | None:
        if passed:
            return None
        if score.failed_gates:
            dimension = {check.id: check.dimension for check in score.checks}
            failed = ", ".join(f"{name} [{dimension.get(name)}]" for name in score.failed_gates)
            return f"{GATE_WORDS}: {failed} (score {score.score:.3f})"
        required = self.mle_session.settings.require_score
        return f"score {score.score:.3f} below --mle-require-score {required}"

    def _agent_phase(self, agent: Agent, integrity: Any) -> SandboxOutcome:
        if self.mle_session.plan.ray:
            raise SandboxError("engineering tasks run on this machine only (not with --mle-ray)")
        if agent.privileged and not self.mle_session.settings.privileged:
            raise AgentError(
                f"agent {agent.name!r} asks for a privileged sandbox; allow it explicitly with "
                "--mle-privileged yes"
            )
        self.gateway = self._make_gateway(agent)
        self.start_ns = time.time_ns()
        job = SandboxJob(
            spec=self._spec(integrity.env),
            agent=agent,
            instructions=Instructions(
                self.time_limit, integrity.nonce, self.task.instruction.read_text("utf-8")
            ),
            run_dir=self.run_dir,
            answers=self.prepared.public,
            submission=NO_SUBMISSION,
            on_sandbox=self._sandbox_made,
            workspace=self.prepared.workspace,
            task_dir=self.task.folder,
            image=self.agent_image,
        )
        try:
            outcome = self.mle_session.executor(self.hooks).run(job)
        finally:
            self.builds.remove_agent_images()
        self.sandbox, self.gateway = outcome.sandbox, outcome.gateway
        return outcome

    def _sandbox_made(self, sandbox: SandboxFacts) -> None:
        self.sandbox = sandbox

    def _spec(self, integrity_env: dict[str, str]) -> SandboxSpec:
        settings = self.mle_session.settings
        interval = self.task.builder.interval_s if self.task.builder else 5.0
        return SandboxSpec(
            run_id=self.run_id,
            competition_id=self.task.id,
            seed=self.case.seed,
            public_dir=self.prepared.public,
            limits=Limits(self.time_limit, self.resources(), settings.sandbox_grace),
            network=self.mle_session.network,
            services=Services.of(
                gateway_service(self.gateway), builder_service(self.builds.endpoint(), interval)
            ),
            log_dir=self.run_dir,
            env={"TASK_ID": self.task.id, **self.prepared.env, **integrity_env},
            labels=self._labels(),
            hidden_paths=hidden_paths(settings.data_dir),
            workspace=True,
        )

    def _labels(self) -> dict[str, str]:
        session = self.mle_session
        return {
            "pytest-mlebench.session": session.session_id,
            "pytest-mlebench.worker": session.worker,
        }

    def _make_gateway(self, agent: Agent) -> Gateway | None:
        return run_gateway(agent, self.mle_session, self.run_dir)

    def _check_context(self) -> CheckContext:
        options = self.mle_session.integrity
        return CheckContext(
            policy=options.policy,
            mode=options.mode,
            network=options.network,
            isolated=self._isolated(),
        )

    def _verify(self, integrity: Any) -> Verified:
        """The verifier phase (:func:`~pytest_mlebench.eng_verify.verify`): accepted results, a
        rejection (the run fails), or a :class:`VerifierError` after one retry (an error)."""
        prepared, work = self.prepared, self.run_dir / "workspace"
        build_dir = self.builds.verify_side(
            work, prepared.workspace, prepared.private, self.run_dir / "build"
        )
        job = VerifierJob(
            task_id=self.task.id,
            seed=self.case.seed,
            verify_dir=self.task.verify_dir,
            private_dir=self.prepared.private,
            pristine_dir=self.prepared.workspace,
            work_dir=self.run_dir / "workspace",
            env=self.prepared.env,
            time_limit=self.task.verify_time_limit,
            log_path=self.run_dir / "verify.log",
            start_time_ns=self.start_ns,
            resources=ResourceGrant(
                cpus=self.task.verify_resources.cpus, memory=self.task.verify_resources.memory
            ),
            image=self.verifier_image,
            labels={"pytest-mlebench.session": self.mle_session.session_id},
            build_dir=build_dir,
        )
        return verify(job, docker=self.mle_session.backend == "docker")

    def _harness_checks(
        self, outcome: SandboxOutcome, report: IntegrityReport | None, evidence: dict[str, Any]
    ) -> list[CheckResult]:
        """The ``H-*`` checks of this run (:mod:`pytest_mlebench.eng.evidence` and its siblings);
        each integrity flag is scored once: by ``H-egress``, ``H-contract`` or ``H-audit``."""
        settings = self.mle_session.settings
        gateway = self.gateway.summary() if self.gateway is not None else None
        token = self.gateway.token if self.gateway is not None else ""
        flags = list(report.flags) if report else []
        proxy = bool(evidence.get("egress"))
        network = egress_flags(flags, self.mle_session.network.mode, proxy)
        contract = contract_flags(flags)
        audited = [flag for flag in flags if flag not in network and flag not in contract]
        checks = [
            wall_check(outcome.exec_result.wall_seconds, self.time_limit, self.task.oracle_wall_s),
            *self._usage_checks(outcome),
            audit_check(flag.severity for flag in audited),
            secrets_check(
                find_secrets([self.run_dir / "workspace", self.run_dir / "logs"], [token])
            ),
            egress_check(network, self.mle_session.network.mode, proxy, self._isolated()),
            contract_check(evidence.get("outside_contract")),
            self._watermark(evidence),
        ]
        llm = llm_check(gateway, settings.token_budget, settings.cost_budget)
        return [*checks, llm] if llm is not None else checks

    def _usage_checks(self, outcome: SandboxOutcome) -> list[CheckResult]:
        """``H-cpu`` and ``H-memory`` from the agent's measured result and its grant."""
        result, grant = outcome.exec_result, outcome.grant
        task = self.task
        return [
            cpu_check(
                result.cpu_seconds,
                grant.cpus,
                self.time_limit,
                task.oracle_wall_s,
                task.oracle_cpu_s,
            ),
            memory_check(result.peak_memory_bytes, grant.memory, task.oracle_peak_mb),
        ]

    def _watermark(self, evidence: dict[str, Any]) -> CheckResult:
        """``H-watermark`` from the in-sandbox file times and the prepared workspace."""
        inventory = evidence.get("inventory") or {}
        premade = premade_deliverables(
            inventory,
            float(evidence.get("sandbox_started") or 0),
            self.run_dir / "workspace",
            self.prepared.workspace,
            ended=time.time(),
        )
        missing = f"no workspace file times ({inventory.get('error') or 'no inventory'})"
        return watermark_check(premade, missing)

    def _isolated(self) -> bool:
        return bool(self.sandbox is not None and self.sandbox.isolated)

    def _record(
        self,
        result: Outcome,
        reason: str | None,
        *,
        outcome: SandboxOutcome | None = None,
        integrity: IntegrityReport | None = None,
        engineering: dict[str, Any] | None = None,
    ) -> RunRecord:
        return eng_record(
            self.mle_session,
            self.task,
            self.case.agent,
            test_id=self.test_id,
            seed=self.case.seed,
            outcome=result,
            reason=reason,
            started_at=self.started_at,
            run_id=self.run_id,
            run_dir=str(self.run_dir),
            time_limit=self.time_limit,
            resources=asdict(outcome.grant if outcome else self.resources()),
            exec_result=outcome.exec_result if outcome else None,
            calls=outcome.calls if outcome else [],
            sandbox=self.sandbox,
            gateway=self.gateway.summary() if self.gateway is not None else None,
            integrity=integrity,
            engineering=engineering,
            stop_reason=read_stop_reason(self.run_dir / "logs"),
        )

    def _write(self, record: RunRecord) -> None:
        self.record = record
        self.hooks.pytest_mlebench_graded(record=record)
        keep_run_files(record, self.run_dir, self.mle_session.settings.results_path)


def eng_record(
    mle_session: MLEBenchSession, task: EngTask, agent: str | None = None, **facts: Any
) -> RunRecord:
    """A record of a run of ``task`` (a skip too), with the session's facts; ``agent`` names the
    run's own agent where it is not the session's (``--mle-agent 'cheat:*'``)."""
    context = run_context(mle_session)
    if agent is not None:
        context = replace(context, agent=agent)
    return make_record(context, task, **facts)
