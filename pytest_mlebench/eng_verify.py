"""The verifier phase of an engineering run, as the run sees it: results, a rejection, or an error.

:func:`verify` runs the task's verifier on the backend of the session and tells three endings
apart (:mod:`pytest_mlebench.sandbox.verifier_phase`):

- results the host accepted (sealed with this run's key, pytest status 0 or 1);
- a **rejection** — the verifier was killed, broke, ran past its limit, or its results do not
  carry this run's seal: the agent's code ran in that verifier, so the run *fails* and is scored
  with no verifier check passed (:attr:`Verified.rejected` says why);
- an **infrastructure error** (the engine failed, the container did not start, the image is
  missing): tried once more, then :class:`~pytest_mlebench.sandbox.verifier_phase.VerifierError`
  propagates and the run is an *error*, never charged to the agent.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.eng.prepared import PreparedTask
from pytest_mlebench.eng.task import EngTask
from pytest_mlebench.sandbox.interface import ResourceGrant
from pytest_mlebench.sandbox.verifier_phase import (
    VerifierError,
    VerifierJob,
    VerifierResult,
    run_local_verifier,
)
from pytest_mlebench.sandbox.verifier_results import VerifierRejected


@dataclass(frozen=True)
class Verified:
    """The verifier phase's ending: the document to score and the record's ``verifier`` facts.

    Attributes:
        document: The accepted ``checks.json`` (``{"checks": {}}`` when rejected).
        facts: The record's ``verifier`` entry (``accepted``, ``rejected``, ``retried`` added).
        rejected: Why the results were not accepted (the run then fails), else ``None``.
    """

    document: dict[str, Any]
    facts: dict[str, Any]
    rejected: str | None = None


def verifier_job(
    task: EngTask,
    prepared: PreparedTask,
    seed: int,
    run_dir: Path,
    *,
    start_ns: int,
    image: str | None,
    session_id: str,
    build_dir: Path | None,
) -> VerifierJob:
    """The verifier's job for a run of ``task`` whose folder is ``run_dir`` (its final
    workspace copied out to ``run_dir/workspace``), with the task's own limits."""
    return VerifierJob(
        task_id=task.id,
        seed=seed,
        verify_dir=task.verify_dir,
        private_dir=prepared.private,
        pristine_dir=prepared.workspace,
        work_dir=run_dir / "workspace",
        env=prepared.env,
        time_limit=task.verify_time_limit,
        log_path=run_dir / "verify.log",
        start_time_ns=start_ns,
        resources=ResourceGrant(
            cpus=task.verify_resources.cpus, memory=task.verify_resources.memory
        ),
        image=image,
        labels={"pytest-mlebench.session": session_id},
        build_dir=build_dir,
    )


def verify(job: VerifierJob, docker: bool) -> Verified:
    """Run ``job``'s verifier (Docker or local), retrying an infrastructure error once."""
    try:
        return _once(job, docker, None)
    except VerifierError as first:
        try:
            return _once(job, docker, str(first))
        except VerifierError as exc:
            raise VerifierError(f"{exc} (tried twice; the first time: {first})") from exc


def _once(job: VerifierJob, docker: bool, retried: str | None) -> Verified:
    try:
        return accepted(_runner(docker)(job), retried)
    except VerifierRejected as rejection:
        return rejected(rejection, job, retried)


def _runner(docker: bool) -> Callable[[VerifierJob], VerifierResult]:
    if not docker:
        return run_local_verifier
    from pytest_mlebench.sandbox.docker.verifier_container import run_docker_verifier

    return run_docker_verifier


def accepted(result: VerifierResult, retried: str | None) -> Verified:
    facts = {**result.facts(), "accepted": True, "rejected": None, "retried": retried}
    return Verified(result.document, facts)


def rejected(rejection: VerifierRejected, job: VerifierJob, retried: str | None) -> Verified:
    facts = {
        "wall_s": round(rejection.wall_s, 3),
        "exit_status": rejection.exit_status,
        "image": job.image,
        "log": str(job.log_path),
        "accepted": False,
        "rejected": rejection.reason,
        "retried": retried,
    }
    return Verified({"checks": {}, "metrics": {}}, facts, rejection.reason)
