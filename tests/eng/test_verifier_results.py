"""The results channel: what the host accepts from a verifier, with the real plugin where it
matters (local backend here; the container's key in ``test_verifier_docker.py``).

Attacks tried: a ``checks.json`` written by code running in the verifier (then the verifier ends
with status 0, as root code could make it), a verifier killed by a signal, a sealed results file
of an earlier run replayed, and a look for the key from a test (the environment, open pipes).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from pytest_mlebench.sandbox.verifier_phase import run_local_verifier
from pytest_mlebench.sandbox.verifier_results import (
    SEAL_FIELD,
    TAMPERED,
    VerifierRejected,
    accept_results,
    new_key,
    seal_of,
)
from tests.eng.test_verifier_local import _job

DOCUMENT = {"version": 1, "exit_status": 0, "checks": {"F1": {"result": 1.0}}, "metrics": {}}


def _sealed(document: dict[str, object], key: bytes) -> str:
    return json.dumps({**document, SEAL_FIELD: seal_of(document, key)}, indent=2)


def test_a_sealed_document_from_a_normal_exit_is_accepted_without_its_seal() -> None:
    key = new_key()
    assert accept_results(_sealed(DOCUMENT, key), 0, key, "here") == DOCUMENT


@pytest.mark.parametrize(
    ("text", "status", "detail"),
    [
        (None, 0, "wrote no checks.json"),
        ("{", 1, "not JSON"),
        ('{"checks": []}', 0, "no checks mapping"),
        (json.dumps(DOCUMENT), 0, "does not carry this run's seal"),  # forged: no key
        (_sealed(DOCUMENT, new_key()), 0, "does not carry this run's seal"),  # replayed
        (_sealed({**DOCUMENT, "exit_status": 1}, b"k"), 0, "says status 1"),
        ("SEALED", 137, "exited with status 137"),  # killed (SIGKILL in a container)
        ("SEALED", -9, "exited with status -9"),  # killed (local)
        ("SEALED", 2, "exited with status 2"),  # interrupted, internal error, usage, no tests
        ("SEALED", 5, "exited with status 5"),
    ],
)
def test_anything_else_is_rejected_with_the_reason(
    text: str | None, status: int, detail: str
) -> None:
    key = b"k"
    text = _sealed(DOCUMENT, key) if text == "SEALED" else text
    with pytest.raises(VerifierRejected, match=detail) as caught:
        accept_results(text, status, key, "log: verify.log", 1.5)
    assert caught.value.reason.startswith(TAMPERED)
    assert (caught.value.exit_status, caught.value.wall_s) == (status, 1.5)


def test_a_changed_value_breaks_the_seal() -> None:
    key = new_key()
    text = _sealed({**DOCUMENT, "checks": {"F1": {"result": 0.0}}}, key)
    forged = text.replace('"result": 0.0', '"result": 1.0')
    with pytest.raises(VerifierRejected, match="seal"):
        accept_results(forged, 0, key, "here")


FORGER = """
import json, os, pytest

@pytest.mark.check("F1")
def test_forges_the_results_and_ends_the_verifier(work_dir):
    entry = {"passed": 1, "total": 1, "result": 1.0, "evidence": [], "tests": []}
    forged = {"version": 1, "exit_status": 0, "metrics": {}, "checks": {"F1": entry}}
    source = work_dir / "replay.json"  # a sealed file of an earlier run, where the agent left one
    text = source.read_text() if source.is_file() else json.dumps(forged)
    (__import__("pathlib").Path(os.environ["VERIFY_OUT"]) / "checks.json").write_text(text)
    os._exit(0)  # as code with the verifier's rights could: pytest never writes its own results
"""

KILLER = """
import os, signal, pytest

@pytest.mark.check("F1")
def test_kills_the_verifier():
    os.kill(os.getpid(), signal.SIGKILL)
"""


def test_a_forged_results_file_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(VerifierRejected, match="does not carry this run's seal"):
        run_local_verifier(_job(tmp_path, FORGER))


def test_a_killed_verifier_is_rejected(tmp_path: Path) -> None:
    with pytest.raises(VerifierRejected, match="exited with status -9"):
        run_local_verifier(_job(tmp_path, KILLER))


STASH = """
import os, shutil, pytest

@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session):  # after the plugin has written and sealed its results
    shutil.copy(os.path.join(os.environ["VERIFY_OUT"], "checks.json"), os.environ["STASH"])
"""


def test_a_sealed_file_of_an_earlier_run_is_rejected(tmp_path: Path) -> None:
    first = _job(tmp_path / "first")
    stash = tmp_path / "earlier-checks.json"
    (first.verify_dir / "conftest.py").write_text(STASH)
    earlier = run_local_verifier(replace(first, env={**first.env, "STASH": str(stash)}))
    assert earlier.document["checks"]["F1"]["result"] == 1.0
    assert SEAL_FIELD in json.loads(stash.read_text())  # a genuine, sealed document
    second = _job(tmp_path / "second", FORGER)
    (second.work_dir / "replay.json").write_text(stash.read_text())
    with pytest.raises(VerifierRejected, match="does not carry this run's seal"):
        run_local_verifier(second)


LOOKER = """
import ctypes, os, pytest

def targets():
    for fd in os.listdir("/proc/self/fd"):
        try:
            yield os.readlink(f"/proc/self/fd/{fd}")
        except OSError:  # the listing's own descriptor, closed by now
            pass

@pytest.mark.check("F1")
def test_the_key_is_out_of_reach():
    assert not any("KEY" in name for name in os.environ)
    pipes = {target for target in targets() if target.startswith("pipe:")}
    assert len(pipes) <= 1, pipes  # the log's pipe (stdout and stderr) only

@pytest.mark.check("F2")
def test_no_process_without_cap_sys_ptrace_reads_the_verifiers_memory():
    assert ctypes.CDLL(None).prctl(3, 0, 0, 0, 0) == 0  # PR_GET_DUMPABLE: not dumpable
"""


def test_no_test_finds_the_key_in_the_environment_an_open_pipe_or_memory(tmp_path: Path) -> None:
    result = run_local_verifier(_job(tmp_path, LOOKER))
    checks = result.document["checks"]
    assert checks["F1"]["result"] == checks["F2"]["result"] == 1.0, checks
