"""The verifier phase as a run sees it: accepted results, a rejection (the run fails), or an
infrastructure error retried once. The backend is a named fake here (a list of endings to play
back); the real backends' endings are in ``test_verifier_local.py`` and ``test_verifier_docker.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_mlebench import eng_verify
from pytest_mlebench.sandbox.verifier_phase import VerifierError, VerifierJob, VerifierResult
from pytest_mlebench.sandbox.verifier_results import TAMPERED, VerifierRejected

Ending = VerifierResult | Exception


def fake_backend(endings: list[Ending]) -> Callable[[VerifierJob], VerifierResult]:
    """A backend that plays ``endings`` back, one per run."""

    def run(job: VerifierJob) -> VerifierResult:
        ending = endings.pop(0)
        if isinstance(ending, Exception):
            raise ending
        return ending

    return run


@pytest.fixture
def job(tmp_path: Path) -> VerifierJob:
    return VerifierJob(
        task_id="tiny", seed=0, verify_dir=tmp_path, private_dir=tmp_path,
        pristine_dir=tmp_path, work_dir=tmp_path, env={}, time_limit=60,
        log_path=tmp_path / "verify.log", image="eng:1",
    )  # fmt: skip


def _play(monkeypatch: pytest.MonkeyPatch, endings: list[Ending]) -> list[Ending]:
    monkeypatch.setattr(eng_verify, "_runner", lambda docker: fake_backend(endings))
    return endings


RESULT = VerifierResult({"checks": {"F1": {"result": 1.0}}}, 0, 2.5, "eng:1", "verify.log")


def test_accepted_results_are_scored_as_they_are(
    job: VerifierJob, monkeypatch: pytest.MonkeyPatch
) -> None:
    _play(monkeypatch, [RESULT])
    verified = eng_verify.verify(job, docker=True)
    assert verified.rejected is None and verified.document == RESULT.document
    assert verified.facts["accepted"] is True and verified.facts["retried"] is None


def test_a_rejection_is_scored_with_no_check_passed_and_not_retried(
    job: VerifierJob, monkeypatch: pytest.MonkeyPatch
) -> None:
    left = _play(monkeypatch, [VerifierRejected(f"{TAMPERED}: status 137", 137, 4.0), RESULT])
    verified = eng_verify.verify(job, docker=True)
    assert verified.rejected == f"{TAMPERED}: status 137"
    assert verified.document["checks"] == {}
    assert verified.facts | {"log": ""} == {
        "wall_s": 4.0, "exit_status": 137, "image": "eng:1", "log": "", "accepted": False,
        "rejected": f"{TAMPERED}: status 137", "retried": None,
    }  # fmt: skip
    assert left == [RESULT]  # the agent's failure is not run again


def test_an_infrastructure_error_is_retried_once(
    job: VerifierJob, monkeypatch: pytest.MonkeyPatch
) -> None:
    _play(monkeypatch, [VerifierError("the container did not start"), RESULT])
    verified = eng_verify.verify(job, docker=True)
    assert verified.rejected is None
    assert verified.facts["retried"] == "the container did not start"


def test_an_infrastructure_error_twice_is_an_error(
    job: VerifierJob, monkeypatch: pytest.MonkeyPatch
) -> None:
    _play(monkeypatch, [VerifierError("engine down"), VerifierError("engine still down")])
    with pytest.raises(VerifierError, match="engine still down .tried twice; the first time"):
        eng_verify.verify(job, docker=False)
