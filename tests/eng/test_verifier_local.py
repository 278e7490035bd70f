"""The local verifier: a fresh temp tree and process, tests restored, a verifier that could not
run (an error) told apart from one whose results cannot be trusted (the run fails)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.sandbox import verifier_phase
from pytest_mlebench.sandbox.verifier_phase import (
    VerifierError,
    VerifierJob,
    run_local_verifier,
    stage_workspace,
)
from pytest_mlebench.sandbox.verifier_results import VerifierRejected

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


def test_a_verifier_that_collects_nothing_fails_the_run(tmp_path: Path) -> None:
    with pytest.raises(VerifierRejected, match="tampered with: it exited with status 5"):
        run_local_verifier(_job(tmp_path, verify="x = 1\n"))


def test_a_broken_verifier_fails_the_run(tmp_path: Path) -> None:
    """Pytest's 2–5 are not results: the agent's code may have broken it (it ran there); a task's
    own broken verifier shows in its oracle run, which CI proves for every task."""
    job = _job(tmp_path)
    (tmp_path / "verify" / "conftest.py").write_text("raise RuntimeError('broken conftest')\n")
    with pytest.raises(VerifierRejected, match="exited with status [234]"):
        run_local_verifier(job)


SLOW = """
import signal, time, pytest

@pytest.mark.check("F1", timeout=1)
def test_a_hung_service():
    time.sleep(30)

@pytest.mark.check("F2", timeout=1)
def test_code_that_swallows_the_interruption():
    try:
        time.sleep(30)
    except BaseException:
        pass
    time.sleep(30)

@pytest.mark.check("F3")
def test_slow_until_the_verifiers_time_is_up():
    time.sleep(30)

@pytest.mark.check("F4")
def test_after_the_time_is_up():
    pass
"""


def test_slow_tests_become_failed_checks_and_the_results_still_count(tmp_path: Path) -> None:
    job = VerifierJob(**{**_job(tmp_path, verify=SLOW).__dict__, "time_limit": 6})
    result = run_local_verifier(job)
    checks = result.document["checks"]
    assert result.exit_status == 1 and result.wall_s < 6
    assert {name: entry["result"] for name, entry in checks.items()} == dict.fromkeys(
        ("F1", "F2", "F3", "F4"), 0.0
    )
    assert all("time limit" in checks[n]["tests"][0]["message"] for n in ("F1", "F2", "F3"))
    assert "no time was left" in checks["F4"]["tests"][0]["message"]


def test_a_verifier_still_running_at_its_limit_fails_the_run(tmp_path: Path) -> None:
    """Past what the plugin can interrupt (here the alarm is blocked, as C code would hold it)."""
    blocked = (
        "import signal, time, pytest\n\n@pytest.mark.check('F1')\ndef test_slow():\n"
        "    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])\n    time.sleep(30)\n"
    )
    job = VerifierJob(**{**_job(tmp_path, verify=blocked).__dict__, "time_limit": 2})
    with pytest.raises(VerifierRejected, match="past its 2 s limit") as caught:
        run_local_verifier(job)
    assert caught.value.exit_status is None and caught.value.wall_s >= 2


def test_a_verifier_that_cannot_start_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verifier_phase.sys, "executable", str(tmp_path / "no-such-python"))
    with pytest.raises(VerifierError, match="cannot start"):
        run_local_verifier(_job(tmp_path))


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
