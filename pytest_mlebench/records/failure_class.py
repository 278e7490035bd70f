"""The one class every run ends in, and which runs the medal rates count. Pure.

Every run that ran ends in exactly one of eight classes (names in
:mod:`pytest_mlebench.values.failure_classes`); a skipped run did not run and has none
(``None``), as it has no place in any denominator.

=====================  ==========================================================================
class                  the run …
=====================  ==========================================================================
``medal``              left a valid submission that earned a medal (the medal that counts:
                       one ``--mle-integrity strict`` withheld does not)
``valid_no_medal``     left a valid submission without a medal; an engineering task's run whose
                       verifier accepted its results (tasks have no medal: their score is in the
                       record's ``engineering`` block)
``oom``                the kernel OOM-killed a process of the agent, and no valid result was left
``timeout``            the agent hit the time limit, and no valid result was left
``agent_crash``        the agent exited non-zero, or could not be launched (:class:`AgentError`),
                       and no valid result was left
``invalid_submission`` the agent ended normally with a submission the grader refused (a task: the
                       host rejected the verifier's results)
``no_submission``      the agent ended normally without writing ``submission.csv``
``infra``              the harness broke: the sandbox engine, an image, a node, the network of the
                       harness, the LLM gateway, the grader or verifier on the host, or any other
                       error of the harness itself — never the agent
=====================  ==========================================================================

Precedence, first match wins: ``infra`` (nothing the run left can be trusted when the harness
broke), then the result (``medal``, ``valid_no_medal``), then the cause of a missing result
(``oom``, ``timeout``, ``agent_crash``), then the submission's own state. A run that timed out
(or crashed, or lost a worker to the OOM killer) but left a valid submission is classed by its
result: the time limit is how long MLE-bench runs normally end (the original stops the agent at
the limit and grades what it left), so the grade is what the run is worth; the record's
``timed_out``, ``oom_killed`` and ``exit_code`` still say what happened. Among the causes, an
OOM kill comes first because it is the earliest event (an agent that lost its worker often runs
on until the limit or exits non-zero because of it), and a timeout before a non-zero exit (the
harness's kill makes the exit code non-zero).

A run that broke with an exception (outcome ``error``) is classed by the exception
(:func:`exception_class`) when it happens, and the class is stored in the record; a record
written before classes existed reads back with the class its fields give (``error`` then meant
the infrastructure, so ``infra``). ``infra`` runs are the only ones ``--mle-retries`` runs again
and the only ones the medal rates leave out (:func:`counts_in_rates`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from pytest_mlebench.errors import AgentError
from pytest_mlebench.records.grade_report import GradeReport
from pytest_mlebench.timestamps import utc_timestamp
from pytest_mlebench.values.failure_classes import FAILURE_CLASSES, FailureClass

__all__ = [
    "EXCLUDED_FROM_RATES",
    "FAILURE_CLASSES",
    "FailureClass",
    "RunFacts",
    "attempt_entry",
    "classify",
    "counts_in_rates",
    "exception_class",
]

# Classes whose runs the medal, valid and percentile rates leave out (the harness's failures).
EXCLUDED_FROM_RATES: frozenset[FailureClass] = frozenset({"infra"})


class RunFacts(Protocol):
    """What the class is decided from (a :class:`~.run_record.RunRecord` has all of it)."""

    @property
    def outcome(self) -> str: ...

    @property
    def kind(self) -> str: ...

    @property
    def grade(self) -> GradeReport | None: ...

    @property
    def medal(self) -> str | None: ...

    @property
    def engineering(self) -> Mapping[str, Any] | None: ...

    @property
    def timed_out(self) -> bool: ...

    @property
    def oom_killed(self) -> bool: ...

    @property
    def exit_code(self) -> int | None: ...


def classify(run: RunFacts) -> FailureClass | None:
    """The class of a run from its recorded facts (``None``: skipped, not run).

    An ``error`` run reads as ``infra`` here: the run stores the class of its exception
    (:func:`exception_class`) when it is made, and only records written before classes existed
    come here without one.
    """
    if run.outcome == "skipped":
        return None
    if run.outcome == "error":
        return "infra"
    result = _result_class(run)
    if result is not None:
        return result
    if run.oom_killed:
        return "oom"
    if run.timed_out:
        return "timeout"
    if run.exit_code not in (0, None):
        return "agent_crash"
    grade = run.grade
    if run.kind == "engineering" or (grade is not None and grade.submission_exists):
        return "invalid_submission"
    return "no_submission"


def _result_class(run: RunFacts) -> FailureClass | None:
    """``medal`` or ``valid_no_medal`` for a run that left a valid result, else ``None``."""
    if run.kind == "engineering":
        block = run.engineering or {}
        verifier = block.get("verifier") or {}
        accepted = block.get("score") is not None and verifier.get("accepted") is not False
        return "valid_no_medal" if accepted else None
    if run.medal is not None:
        return "medal"
    if run.grade is not None and run.grade.valid_submission:
        return "valid_no_medal"
    return None


def exception_class(exc: BaseException) -> FailureClass:
    """The class of a run that broke with ``exc``: ``agent_crash`` for an agent that could not
    be found, configured or launched (:class:`AgentError`), ``infra`` for everything else — a
    :class:`~pytest_mlebench.errors.SandboxError` (engine, image build, node lost, the gateway's
    own failure, the verifier phase), a grader that crashed on the host, any bug of the harness.

    The agent's own failures (a non-zero exit, an OOM kill, the time limit) never arrive as an
    exception: they are facts of its finished command, classed by :func:`classify`.
    """
    return "agent_crash" if isinstance(exc, AgentError) else "infra"


def counts_in_rates(failure_class: FailureClass | None) -> bool:
    """Whether a run of ``failure_class`` counts in the medal, valid and percentile rates: every
    run that ran (a class) except the harness's failures (:data:`EXCLUDED_FROM_RATES`)."""
    return failure_class is not None and failure_class not in EXCLUDED_FROM_RATES


def attempt_entry(number: int, failure_class: FailureClass, reason: str) -> dict[str, Any]:
    """The record's account of an earlier attempt of a run that was tried again
    (``--mle-retries``): its number (from 1), its class and why it failed, and when."""
    return {
        "attempt": number,
        "failure_class": failure_class,
        "reason": reason,
        "finished_at": utc_timestamp(),
    }
