"""The competition kind of run: the validator, the grade, the integrity checks, the medal gate.

:class:`CompetitionRun` is :class:`~.skeleton.Run` with the competition's judgement: the
submission the sandbox phase copied out is graded against the answers (which never left this
machine), the integrity checks run over the evidence, and the medal requirement
(``--mle-require``) decides *passed* or *failed*. Its job carries the answers for the validator
behind ``validate_submission.sh`` and the GPUs the competition asks for.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import ClassVar, Literal

import pytest

from pytest_mlebench.anytime.copies import CopyPlan
from pytest_mlebench.anytime.grade_copies import anytime_block
from pytest_mlebench.data import PreparedData
from pytest_mlebench.grading import GradeReport, grade_submission
from pytest_mlebench.integrity.checks import withheld_gate
from pytest_mlebench.integrity.monitor import integrity_context
from pytest_mlebench.records.build import write_grade_file
from pytest_mlebench.records.requirement import requirement_failure
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.registry import Competition
from pytest_mlebench.run.case import RunCase
from pytest_mlebench.run.judgement import Judgement, joined
from pytest_mlebench.run.session_start import StartedExecutor
from pytest_mlebench.run.skeleton import Run
from pytest_mlebench.sandbox.gpus import gpus_wanted
from pytest_mlebench.sandbox.interface import SandboxSpec
from pytest_mlebench.sandbox_phase import SandboxJob, SandboxOutcome, SubmissionCheck
from pytest_mlebench.session import MLEBenchSession
from pytest_mlebench.values.marks import marks_for
from pytest_mlebench.variants.public_view import variant_description, variant_public


class CompetitionRun(Run):
    """One run of a competition: create one per test, call :meth:`execute` once."""

    kind: ClassVar[Literal["competition"]] = "competition"

    def __init__(
        self,
        mle_session: MLEBenchSession,
        competition: Competition,
        prepared: PreparedData,
        case: RunCase,
        test_id: str,
        pluginmanager: pytest.PytestPluginManager,
        started: StartedExecutor | None = None,
        on_record: Callable[[RunRecord], None] | None = None,
    ) -> None:
        super().__init__(mle_session, competition, case, test_id, pluginmanager, started, on_record)
        self.competition = competition
        self.prepared = prepared

    def gpu_count(self) -> int:
        """GPUs this run's sandbox leases (``--mle-gpus-per-sandbox`` or the competition's)."""
        return gpus_wanted(
            self.competition.resources.gpus, self.mle_session.settings.gpus_per_sandbox
        )

    def public_dir(self) -> Path:
        """The public folder the agent sees: the prepared one, or its view for the session's
        description variant (``--mle-description``, :mod:`pytest_mlebench.variants`)."""
        variant = self.mle_session.settings.description
        description = variant_description(self.competition.folder, variant)
        return variant_public(self.prepared.public, self.prepared.manifest, description, variant)

    def sandbox_job(self, spec: SandboxSpec) -> SandboxJob:
        check = SubmissionCheck(self.prepared.answers, self.competition.submission)
        job = replace(super().sandbox_job(spec), check=check, gpus=self.gpu_count())
        plan = self.copy_plan()
        if plan is not None and job.resume is not None:
            plan = replace(plan, time_used_before=job.resume.time_used)
        return replace(job, copies=plan)

    def copy_plan(self) -> CopyPlan | None:
        """How the submission is copied while the agent runs (``--mle-submission-poll``,
        ``--mle-submission-copies``); ``None`` when either turns it off."""
        settings = self.mle_session.settings
        if settings.submission_poll is None or settings.submission_copies == 0:
            return None
        return CopyPlan(settings.submission_poll, settings.submission_copies)

    def judge(self, outcome: SandboxOutcome) -> Judgement:
        """Grade the submission, check the run's integrity, apply the medal requirement."""
        report = self._grade(outcome.submission)
        context = integrity_context(
            self.mle_session.integrity, self.competition, self.sandbox, report.score
        )
        integrity = self.integrity.check(outcome.evidence, outcome.calls, context, report.medal)
        require = self.mle_session.settings.require
        gate = requirement_failure(report, require) or withheld_gate(integrity, require)
        stop_reason = self.stop_reason()
        notes = [
            *self.phase_notes(outcome),
            self._budget_note(),
            f"agent stopped: {stop_reason}" if gate and stop_reason else None,
            gate,
        ]
        outcome_word: Literal["passed", "failed"] = "failed" if gate else "passed"
        marks = marks_for(self.mle_session.settings.marks, self.full_time_limit)
        curve = anytime_block(self.run_dir, self.competition, self.prepared.answers, marks)
        return Judgement(
            outcome_word, joined(notes), integrity=integrity, grade=report, anytime=curve
        )

    def _grade(self, submission: Path) -> GradeReport:
        report = grade_submission(submission, self.competition, self.prepared.answers)
        write_grade_file(self.run_dir, report)
        return report

    def _budget_note(self) -> str | None:
        if self.gateway is None or not self.gateway.ledger.budget_exhausted:
            return None
        return "LLM budget exhausted (budget_exhausted); the submission so far was graded"
