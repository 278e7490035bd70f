"""The local verifier: a fresh temp tree and process, tests restored, errors told apart."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.sandbox.verifier_phase import (
    VerifierError,
    VerifierJob,
    read_results,
    run_local_verifier,
    stage_workspace,
)

VERIFY = """
import os
import pytest


@pytest.mark.check("F1")
def test_done(work_dir, evidence):
    evidence("done.txt: " + (work_dir / "done.txt").read_text())
    assert (work_dir / "done.txt").read_text() == "ok"


@pytest.mark.check("T1")
def test_visible_tests_are_the_pristine_ones(work_dir, pristine_dir):
    assert (work_dir / "tests" / "test_x.py").read_text() == "assert True\\n"


@pytest.mark.check("E1")
def test_environment(private_dir, seed):
    assert os.environ["APP_LOG"] == os.environ["WORK_DIR"] + "/logs/app.log"
    assert (private_dir / "expected.txt").read_text() == "ok"
    assert seed == 3 and os.environ["TASK_ID"] == "tiny"
"""


def _job(tmp_path: Path, verify: str = VERIFY) -> VerifierJob:
    for name in ("verify", "private", "pristine/tests", "work/tests"):
        (tmp_path / name).mkdir(parents=True, exist_ok=True)
    (tmp_path / "verify" / "test_hidden.py").write_text(verify)
    (tmp_path / "private" / "expected.txt").write_text("ok")
    (tmp_path / "pristine" / "tests" / "test_x.py").write_text("assert True\n")
    (tmp_path / "work" / "tests" / "test_x.py").write_text("edited by the agent\n")
    (tmp_path / "work" / "done.txt").write_text("ok")
    return VerifierJob(
        task_id="tiny",
        seed=3,
        verify_dir=tmp_path / "verify",
        private_dir=tmp_path / "private",
        pristine_dir=tmp_path / "pristine",
        work_dir=tmp_path / "work",
        env={"APP_LOG": "{WORK_DIR}/logs/app.log"},
        time_limit=60,
        log_path=tmp_path / "verify.log",
    )


def test_the_verifier_reports_checks_with_tests_restored(tmp_path: Path) -> None:
    result = run_local_verifier(_job(tmp_path))
    checks = result.document["checks"]
    assert {name: entry["result"] for name, entry in checks.items()} == {
        "E1": 1.0,
        "F1": 1.0,
        "T1": 1.0,
    }
    assert checks["F1"]["evidence"] == ["done.txt: ok"]
    assert result.exit_status == 0 and result.facts()["log"] == str(tmp_path / "verify.log")
    # the agent's own copy is untouched: the verifier worked on a copy
    assert (tmp_path / "work" / "tests" / "test_x.py").read_text() == "edited by the agent\n"


def test_a_failing_check_is_a_result_not_an_error(tmp_path: Path) -> None:
    job = _job(tmp_path)
    (tmp_path / "work" / "done.txt").write_text("no")
    result = run_local_verifier(job)
    assert result.exit_status == 1
    assert result.document["checks"]["F1"]["result"] == 0.0


def test_a_verifier_that_collects_nothing_is_an_error(tmp_path: Path) -> None:
    with pytest.raises(VerifierError, match="status 5"):
        run_local_verifier(_job(tmp_path, verify="x = 1\n"))


def test_a_broken_verifier_is_an_error(tmp_path: Path) -> None:
    job = _job(tmp_path)
    (tmp_path / "verify" / "conftest.py").write_text("raise RuntimeError('broken conftest')\n")
    with pytest.raises(VerifierError, match="status [234]"):
        run_local_verifier(job)


def test_a_verifier_past_its_limit_is_an_error(tmp_path: Path) -> None:
    slow = 'import time, pytest\n\n@pytest.mark.check("F1")\ndef test_slow():\n    time.sleep(30)\n'
    job = _job(tmp_path, verify=slow)
    job = VerifierJob(**{**job.__dict__, "time_limit": 2})
    with pytest.raises(VerifierError, match="past its 2 s limit"):
        run_local_verifier(job)


def test_missing_or_invalid_results_are_errors() -> None:
    with pytest.raises(VerifierError, match="wrote no checks.json"):
        read_results(None, 0, "here")
    with pytest.raises(VerifierError, match="not JSON"):
        read_results("{", 1, "here")
    with pytest.raises(VerifierError, match="no checks mapping"):
        read_results('{"checks": []}', 0, "here")
    assert read_results('{"checks": {}}', 1, "here") == {"checks": {}}


def test_staging_restores_deleted_and_replaced_visible_tests(tmp_path: Path) -> None:
    pristine, work = tmp_path / "pristine", tmp_path / "work"
    (pristine / "tests" / "unit").mkdir(parents=True)
    (pristine / "tests" / "unit" / "test_a.py").write_text("original")
    (work / "tests").mkdir(parents=True)
    (work / "tests" / "unit").symlink_to("/etc")  # a link planted where a folder was
    (work / "tests" / "test_new.py").write_text("the agent's own test")
    stage_workspace(work, pristine, tmp_path / "staged")
    staged = tmp_path / "staged" / "tests"
    assert (staged / "unit" / "test_a.py").read_text() == "original"
    assert not (staged / "unit").is_symlink()
    assert (staged / "test_new.py").read_text() == "the agent's own test"
