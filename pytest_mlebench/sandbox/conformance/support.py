"""What the conformance suite runs sandboxes on: a tiny prepared competition, specs, a validator.

:func:`make_spec` takes the spec's own field names as overrides, plus ``time_limit``,
``resources`` and ``expiry_grace`` (folded into :class:`~..sandbox_spec.Limits`), ``network`` as its
spelling (``"bridge"``) and ``validator`` (a check, or ``None`` for no validator service).

Shared with the project's own sandbox tests, so every suite starts sandboxes the same way.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_mlebench.graders import ScoreResult
from pytest_mlebench.sandbox.interface import ExecResult, Sandbox
from pytest_mlebench.sandbox.sandbox_spec import Limits, ResourceGrant, SandboxSpec
from pytest_mlebench.sandbox.services import Services
from pytest_mlebench.sandbox.validator import SubmissionValidator, ValidatorService
from pytest_mlebench.values.network_policy import parse_network
from pytest_mlebench.values.time_limit import DEFAULT_SANDBOX_GRACE

ANSWER_TOKEN = "ANSWER-" + uuid.uuid4().hex  # appears only in the private answers
INSTRUCTIONS_TEXT = "Predict label for test.csv."

MakeSandbox = Callable[[SandboxSpec], Sandbox]
"""Makes a (not started) sandbox of the backend under test for a spec."""
SandboxFactory = Callable[..., Sandbox]
"""Makes a *started* sandbox; keyword arguments override fields of the default spec."""


def prepare_competition_dirs(folder: Path) -> tuple[Path, Path]:
    """A prepared competition under ``folder``: ``public/`` (train, test, sample) and
    ``private/`` (answers holding :data:`ANSWER_TOKEN`), with the modes data preparation leaves.
    """
    public, private = folder / "prepared" / "public", folder / "prepared" / "private"
    public.mkdir(parents=True)
    private.mkdir()
    (public / "train.csv").write_text("id,x,label\n1,0.1,0\n2,0.9,1\n")
    (public / "test.csv").write_text("id,x\n3,0.2\n4,0.8\n")
    (public / "sample_submission.csv").write_text("id,label\n3,0\n4,0\n")
    (private / "answers.csv").write_text(f"id,label\n3,0\n4,1\n# {ANSWER_TOKEN}\n")
    # Public readable by all (the agent may run as another user), private by its owner only.
    os.chmod(folder, 0o755)
    os.chmod(folder / "prepared", 0o755)
    private.chmod(0o700)
    return public, private


def fake_validator(path: Path) -> ScoreResult:
    """Stands in for the grader's validation: valid when the header is ``id,label``."""
    header = path.read_text().splitlines()[:1]
    if header == ["id,label"]:
        return ScoreResult(valid=True, score=0.123)
    return ScoreResult(valid=False, reason="expected the columns id,label")


def make_spec(public: Path, **overrides: Any) -> SandboxSpec:
    """The suite's default spec for the competition whose public folder is ``public``: a
    validator service answering with :func:`fake_validator` (see the module docstring for the
    overrides)."""
    limits = Limits(
        time_limit=overrides.pop("time_limit", 60),
        resources=overrides.pop("resources", ResourceGrant(memory="1g", pids=256)),
        expiry_grace=overrides.pop("expiry_grace", float(DEFAULT_SANDBOX_GRACE)),
    )
    validator: SubmissionValidator | None = overrides.pop("validator", fake_validator)
    if isinstance(overrides.get("network"), str):
        overrides["network"] = parse_network(overrides["network"])
    fields: dict[str, Any] = {
        "run_id": f"conformance-{uuid.uuid4().hex[:8]}",
        "subject": "toy",
        "seed": 7,
        "public_dir": public,
        "limits": limits,
        "services": Services.of(
            ValidatorService(validator, interval=1.0) if validator is not None else None
        ),
        "hidden_paths": (public.parent / "private",),
    }
    fields.update(overrides)
    return SandboxSpec(**fields)


def validator_of(sandbox: Sandbox) -> ValidatorService:
    """The validator service attached to ``sandbox`` (the suite's specs all have one)."""
    service = sandbox.spec.services.get(ValidatorService)
    assert service is not None, "the spec has no validator service"
    return service


def run_python(sandbox: Sandbox, code: str, **kwargs: Any) -> ExecResult:
    """Run a Python snippet inside ``sandbox`` with its own interpreter."""
    return sandbox.exec([sandbox.python, "-c", code], **kwargs)
