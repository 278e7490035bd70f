"""The failure class of a run: the precedence table, and the class of an exception."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_mlebench.errors import AgentError, SandboxError
from pytest_mlebench.gateway.config import GatewayError
from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.records.failure_class import exception_class
from pytest_mlebench.records.verdict import IntegrityReport
from tests.report.builders import record

ACCEPTED = {"score": 0.4, "verifier": {"accepted": True}}
REJECTED = {"score": 0.0, "verifier": {"accepted": False, "rejected": "forged results"}}
CASES: list[tuple[str, dict[str, Any], str | None]] = [
    ("a medal", {"score": 0.95}, "medal"),
    ("valid, no medal", {"score": 0.5}, "valid_no_medal"),
    # the result first: a run stopped at the limit is graded on what it left, as in MLE-bench
    ("timed out, valid", {"score": 0.95, "timed_out": True, "exit_code": 137}, "medal"),
    ("crashed, valid", {"score": 0.5, "exit_code": 1}, "valid_no_medal"),
    ("invalid", {"score": None, "outcome": "failed"}, "invalid_submission"),
    ("nothing written", {"graded": False, "outcome": "failed"}, "no_submission"),
    ("oom before timeout", {"score": None, "oom_killed": True, "timed_out": True}, "oom"),
    ("timeout before exit", {"score": None, "timed_out": True, "exit_code": 137}, "timeout"),
    ("non-zero exit", {"graded": False, "exit_code": 2}, "agent_crash"),
    ("an error of old", {"graded": False, "outcome": "error"}, "infra"),
    ("an agent error", {"outcome": "error", "failure_class": "agent_crash"}, "agent_crash"),
    ("skipped", {"outcome": "skipped"}, None),
    (
        "task accepted",
        {"graded": False, "kind": "engineering", "engineering": ACCEPTED},
        "valid_no_medal",
    ),
    (
        "task rejected",
        {"graded": False, "kind": "engineering", "engineering": REJECTED},
        "invalid_submission",
    ),
]


@pytest.mark.parametrize(("facts", "expected"), [pytest.param(f, e, id=i) for i, f, e in CASES])
def test_the_class_follows_the_documented_precedence(
    facts: dict[str, Any], expected: str | None
) -> None:
    facts = dict(facts)
    score = facts.pop("score", 0.5)
    assert record("alpha", 0, score, **facts).failure_class == expected


def test_a_withheld_medal_is_a_valid_run_without_one() -> None:
    integrity = IntegrityReport(mode="strict", medal_withheld=True, earned_medal="gold")
    assert record("alpha", 0, 0.95, integrity=integrity).failure_class == "valid_no_medal"


@pytest.mark.parametrize(
    ("error", "expected"),
    [
        (AgentError("agent 'x' asks for a privileged sandbox"), "agent_crash"),
        (SandboxError("engine gone"), "infra"),
        (GatewayError("upstream refused"), "infra"),
        (GraderError("metric crashed"), "infra"),
        (RuntimeError("a bug of the harness"), "infra"),
    ],
)
def test_only_an_agent_error_is_the_agents(error: Exception, expected: str) -> None:
    assert exception_class(error) == expected
