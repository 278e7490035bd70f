"""The host services of a run's sandbox phase: what the executor attaches, what it reads back.

The run puts the services it owns into the job's spec (the LLM gateway, an engineering task's
image builder); the executor adds the one only it can make, the validator that reaches the
answers (:func:`host_validator` on this machine, the controller's desk on a Ray node), together
with the GPUs it leased (:func:`phase_spec`). After the phase, :func:`validation_calls` and
:func:`builder_evidence` read what the services logged, in the record's form. Backends stay
out of it: they serve whatever ``spec.services`` holds (:mod:`pytest_mlebench.sandbox.services`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from pytest_mlebench.graders import ScoreResult, SubmissionSpec, validate_submission
from pytest_mlebench.sandbox.build_endpoint import BuilderService
from pytest_mlebench.sandbox.sandbox_spec import SandboxSpec
from pytest_mlebench.sandbox.services import Services
from pytest_mlebench.sandbox.validator import SubmissionValidator, ValidatorService


def host_validator(answers: Path, submission: SubmissionSpec) -> SubmissionValidator:
    """``validate_submission.sh``'s answer, checked against ``answers`` on this machine."""

    def validate(path: Path) -> ScoreResult:
        return validate_submission(path, answers, submission)

    return validate


def phase_spec(
    spec: SandboxSpec, gpus: Sequence[str], validate: SubmissionValidator | None
) -> SandboxSpec:
    """``spec`` as its sandbox starts: with the leased ``gpus`` and the validator service
    answering with ``validate`` (a competition run; a run with a workspace gets none)."""
    services = spec.services
    if validate is not None and not spec.workspace:
        services = services.with_service(ValidatorService(validate))
    return replace(spec, limits=spec.limits.with_gpus(gpus), services=services)


def validation_calls(services: Services) -> list[dict[str, Any]]:
    """The validator's calls as the record keeps them (none without a validator)."""
    validator = services.get(ValidatorService)
    return validator.call_log() if validator is not None else []


def builder_evidence(services: Services) -> dict[str, Any]:
    """The builder's calls and refusals for the integrity evidence (nothing without one)."""
    builder = services.get(BuilderService)
    if builder is None:
        return {}
    return {"build_calls": builder.call_log(), "build_refused": builder.refused}
