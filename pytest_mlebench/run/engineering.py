"""The engineering kind of run: the workspace, the hidden verifier, the harness checks, the score.

:class:`EngineeringRun` is :class:`~.skeleton.Run` with an engineering task's judgement. Its
sandbox phase is the skeleton's with a workspace: the prepared workspace is copied to
``WORK_DIR``, the agent runs under the harness deadline and the integrity watch, every agent
process is killed, ``WORK_DIR`` is copied out. The hidden verifier then runs where no agent
process can reach it (:mod:`pytest_mlebench.eng_verify`), the harness adds its own checks
(``H-*``, :mod:`.harness_checks`), and the score decides: *failed* for a failed gate, a score
below ``--mle-require-score``, or verifier results the host rejected; *error* when the engine
broke (after one retry). Its images come from the executor's session start; a profile that
could not be built skips the run with the command that builds it.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import ClassVar, Literal

import pytest

from pytest_mlebench.eng.prepared import PreparedTask
from pytest_mlebench.eng.result import EngineeringResult
from pytest_mlebench.eng.scoring import GATE_WORDS, TaskScore, score_run
from pytest_mlebench.eng.task import EngTask
from pytest_mlebench.eng_builds import TaskBuilds
from pytest_mlebench.eng_images import VERIFIER_PROFILE, HiddenFilesInImage
from pytest_mlebench.eng_verify import Verified, verifier_job, verify
from pytest_mlebench.errors import SandboxError
from pytest_mlebench.integrity.checks import CheckContext
from pytest_mlebench.integrity.run_evidence import Evidence
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.records.verdict import IntegrityReport
from pytest_mlebench.run.case import RunCase
from pytest_mlebench.run.harness_checks import HarnessFacts, harness_checks
from pytest_mlebench.run.judgement import Judgement, joined
from pytest_mlebench.run.session_start import StartedExecutor
from pytest_mlebench.run.skeleton import Run
from pytest_mlebench.sandbox.build_endpoint import builder_service
from pytest_mlebench.sandbox.interface import SandboxSpec
from pytest_mlebench.sandbox_phase import SandboxJob, SandboxOutcome
from pytest_mlebench.session import MLEBenchSession


class EngineeringRun(Run):
    """One run of an engineering task: create one per test, call :meth:`execute` once."""

    kind: ClassVar[Literal["engineering"]] = "engineering"

    def __init__(
        self,
        mle_session: MLEBenchSession,
        task: EngTask,
        prepared: PreparedTask,
        case: RunCase,
        test_id: str,
        pluginmanager: pytest.PytestPluginManager,
        started: StartedExecutor | None = None,
        on_record: Callable[[RunRecord], None] | None = None,
    ) -> None:
        super().__init__(mle_session, task, case, test_id, pluginmanager, started, on_record)
        self.task = task
        self.prepared = prepared
        self.builds = TaskBuilds(task.builder, self.run_id, self.labels())
        self.start_ns = time.time_ns()
        self.agent_image: str | None = None
        self.verifier_image: str | None = None

    def before_sandbox(self) -> None:
        """The agent's and the verifier's images from the session start; a run whose image
        could not be built (no registry for Debian's packages, offline) is skipped with the
        command that builds it, one holding hidden files is an error."""
        images, profile = self.started.images, self.task.image
        try:
            if profile != "base":
                self.agent_image = images.profile(profile)
            profile = VERIFIER_PROFILE
            self.verifier_image = images.profile(profile)
        except HiddenFilesInImage as exc:
            self.hand_over(self._record("error", str(exc)))
            raise
        except SandboxError as exc:
            reason = (
                f"the {profile} image is not available ({exc}); build it where Debian's "
                f"registry answers: mlebench sandbox build --profile {profile}"
            )
            self.hand_over(self._record("skipped", reason))
            pytest.skip(reason)

    def public_dir(self) -> Path:
        return self.prepared.public

    def instruction_body(self) -> str:
        return self.task.instruction.read_text("utf-8")

    def sandbox_spec(self) -> SandboxSpec:
        spec = super().sandbox_spec()
        interval = self.task.builder.interval_s if self.task.builder else 5.0
        builder = builder_service(self.builds.endpoint(), interval)
        return replace(
            spec,
            env={"TASK_ID": self.task.id, **self.prepared.env, **spec.env},
            workspace=True,
            services=spec.services if builder is None else spec.services.with_service(builder),
        )

    def sandbox_job(self, spec: SandboxSpec) -> SandboxJob:
        self.start_ns = time.time_ns()
        job = super().sandbox_job(spec)
        return replace(
            job,
            workspace=self.prepared.workspace,
            task_dir=self.task.folder,
            image=self.agent_image,
        )

    def phase_ended(self) -> None:
        self.builds.remove_agent_images()

    def judge(self, outcome: SandboxOutcome) -> Judgement:
        """Check the integrity, run the verifier, add the harness checks, score the run."""
        report = self.integrity.check(outcome.evidence, outcome.calls, self._check_context(), None)
        verified = self._verify()
        score = score_run(
            self.task, verified.document, harness_checks(self._facts(outcome, report))
        )
        passed = verified.rejected is None and score.passed(self.mle_session.settings.require_score)
        result = EngineeringResult(
            self.task, score, passed, verified.facts, self.builds.record(outcome.evidence)
        )
        gate = (
            None if verified.rejected and not score.failed_gates else self._gate_note(score, passed)
        )
        notes = [verified.rejected, *self.phase_notes(outcome), gate]
        outcome_word: Literal["passed", "failed"] = "passed" if passed else "failed"
        return Judgement(outcome_word, joined(notes), integrity=report, result=result)

    def _gate_note(self, score: TaskScore, passed: bool) -> str | None:
        if passed:
            return None
        if score.failed_gates:
            dimension = {check.id: check.dimension for check in score.checks}
            failed = ", ".join(f"{name} [{dimension.get(name)}]" for name in score.failed_gates)
            return f"{GATE_WORDS}: {failed} (score {score.score:.3f})"
        required = self.mle_session.settings.require_score
        return f"score {score.score:.3f} below --mle-require-score {required}"

    def _isolated(self) -> bool:
        return bool(self.sandbox is not None and self.sandbox.isolated)

    def _check_context(self) -> CheckContext:
        options = self.mle_session.integrity
        return CheckContext(
            policy=options.policy,
            mode=options.mode,
            network=options.network,
            isolated=self._isolated(),
        )

    def _verify(self) -> Verified:
        """The verifier phase (:func:`~pytest_mlebench.eng_verify.verify`): accepted results, a
        rejection (the run fails), or a :class:`VerifierError` after one retry (an error)."""
        prepared, work = self.prepared, self.run_dir / "workspace"
        build_dir = self.builds.verify_side(
            work, prepared.workspace, prepared.private, self.run_dir / "build"
        )
        job = verifier_job(
            self.task,
            prepared,
            self.case.seed,
            self.run_dir,
            start_ns=self.start_ns,
            image=self.verifier_image,
            session_id=self.mle_session.session_id,
            build_dir=build_dir,
        )
        return verify(job, docker=self.mle_session.backend == "docker")

    def _facts(self, outcome: SandboxOutcome, report: IntegrityReport | None) -> HarnessFacts:
        settings, gateway = self.mle_session.settings, self.gateway
        return HarnessFacts(
            task=self.task,
            time_limit=self.time_limit,
            result=outcome.exec_result,
            grant=outcome.grant,
            flags=list(report.flags) if report else [],
            evidence=outcome.evidence or Evidence(),
            network_mode=self.mle_session.network.mode,
            isolated=self._isolated(),
            run_dir=self.run_dir,
            pristine=self.prepared.workspace,
            gateway=gateway.summary() if gateway is not None else None,
            gateway_token=gateway.token if gateway is not None else "",
            token_budget=settings.token_budget,
            cost_budget=settings.cost_budget,
        )
