"""The verifier in a fresh Docker container: results read through the engine and accepted only with
this run's seal; a verifier that could not run (an error) told apart from one whose results
cannot be trusted (the run fails).

Needs a Docker engine; the runs need the eng image (`mlebench sandbox build --profile eng`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pytest_mlebench.sandbox.verifier_phase import VerifierError, VerifierJob
from pytest_mlebench.sandbox.verifier_results import VerifierRejected
from tests.eng.conftest import eng_image
from tests.eng.test_verifier_local import VERIFY
from tests.eng.test_verifier_local import _job as local_job
from tests.eng.test_verifier_results import FORGER, KILLER


def _engine_and_image() -> str:
    return eng_image()


def _job(tmp_path: Path, image: str, verify: str = VERIFY) -> VerifierJob:
    return replace(local_job(tmp_path, verify), image=image)


def test_the_container_reports_checks_with_tests_restored(tmp_path: Path) -> None:
    from pytest_mlebench.sandbox.docker.verifier_container import run_docker_verifier

    image = _engine_and_image()
    result = run_docker_verifier(_job(tmp_path, image))
    checks = result.document["checks"]
    assert {name: entry["result"] for name, entry in checks.items()} == {
        "E1": 1.0,
        "F1": 1.0,
        "T1": 1.0,
    }
    assert result.image == image and (tmp_path / "verify.log").is_file()


def test_a_verifier_still_running_at_its_limit_fails_the_run(tmp_path: Path) -> None:
    """The plugin interrupts a slow test itself; one that holds the alarm (as C code would) runs
    the verifier past its limit: the run fails, it is not an infrastructure error."""
    from pytest_mlebench.sandbox.docker.verifier_container import run_docker_verifier

    image = _engine_and_image()
    slow = (
        "import signal, time, pytest\n\n@pytest.mark.check('F1')\ndef test_slow():\n"
        "    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])\n    time.sleep(60)\n"
    )
    job = replace(_job(tmp_path, image, slow), time_limit=3)
    with pytest.raises(VerifierRejected, match="past its 3 s limit"):
        run_docker_verifier(job)


KEY_PROBE = """
import os, stat, subprocess, sys, pytest
from pathlib import Path

KEY = Path("/run/mlebench-verify/key")

@pytest.mark.check("F1")
def test_only_root_can_open_the_key_or_write_the_results():
    folder, key = KEY.parent.stat(), KEY.stat()
    assert (folder.st_uid, stat.S_IMODE(folder.st_mode)) == (0, 0o700)
    assert (key.st_uid, stat.S_IMODE(key.st_mode)) == (0, 0o400)
    assert not any("KEY" in name for name in os.environ)
    probe = "import pathlib; pathlib.Path('/run/mlebench-verify/key').read_bytes()"
    done = subprocess.run([sys.executable, "-c", probe], user=65534, group=65534,
                          extra_groups=[], capture_output=True, text=True)
    assert done.returncode != 0 and "PermissionError" in done.stderr, done.stderr
    forge = "open('/out/checks.json', 'w').write('{}')"
    done = subprocess.run([sys.executable, "-c", forge], user=65534, group=65534,
                          extra_groups=[], capture_output=True, text=True)
    assert done.returncode != 0 and "PermissionError" in done.stderr, done.stderr

@pytest.mark.check("F1")
def test_not_even_root_code_reads_the_verifiers_memory_or_environment():
    probe = f"open('/proc/{os.getpid()}/environ', 'rb').read()"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert done.returncode != 0 and "PermissionError" in done.stderr, done.stderr

@pytest.mark.check("T1")
def test_no_setuid_program_gives_root_back():
    status = Path("/proc/self/status").read_text()
    assert "NoNewPrivs:\t1" in status
"""


def test_the_key_is_root_only_and_the_results_carry_its_seal(tmp_path: Path) -> None:
    from pytest_mlebench.sandbox.docker.verifier_container import run_docker_verifier

    result = run_docker_verifier(_job(tmp_path, _engine_and_image(), KEY_PROBE))
    checks = result.document["checks"]
    assert {name: entry["result"] for name, entry in checks.items()} == {"F1": 1.0, "T1": 1.0}, (
        checks
    )


@pytest.mark.parametrize(
    ("attack", "detail"),
    [(FORGER, "does not carry this run's seal"), (KILLER, "exited with status 137")],
    ids=["forged-results", "killed"],
)
def test_forged_results_and_a_killed_verifier_fail_the_run(
    tmp_path: Path, attack: str, detail: str
) -> None:
    from pytest_mlebench.sandbox.docker.verifier_container import run_docker_verifier

    with pytest.raises(VerifierRejected, match=detail):
        run_docker_verifier(_job(tmp_path, _engine_and_image(), attack))


def test_a_missing_image_is_an_error(tmp_path: Path) -> None:
    from pytest_mlebench.sandbox import docker_status
    from pytest_mlebench.sandbox.docker.verifier_container import run_docker_verifier

    if not docker_status()[0]:
        pytest.skip("no Docker engine")
    with pytest.raises(VerifierError, match="is missing"):
        run_docker_verifier(_job(tmp_path, "pytest-mlebench-no-such-image:0"))


def test_hidden_files_are_staged_as_links_in_root_only_folders(tmp_path: Path) -> None:
    """Large private files (a 1.5 GB input) cost no copy: the staged file is the same inode,
    its folder is 0700, and removing the staging leaves the prepared file in place."""
    from pytest_mlebench.sandbox.docker.verifier_container import stage_hidden

    job = local_job(tmp_path, VERIFY)
    (job.private_dir / "big.bin").write_bytes(b"x" * 4096)
    staged = stage_hidden(job, tmp_path / "staging")
    original, linked = job.private_dir / "big.bin", staged["private"] / "big.bin"
    assert linked.stat().st_ino == original.stat().st_ino
    assert staged["private"].stat().st_mode & 0o777 == 0o700
    linked.unlink()
    assert original.read_bytes() == b"x" * 4096


def test_a_file_on_another_file_system_is_copied(tmp_path: Path) -> None:
    from pytest_mlebench.sandbox.docker import verifier_container

    source, target = tmp_path / "a", tmp_path / "b"
    source.write_text("data")

    def no_link(src: str, dst: str) -> None:
        raise OSError(18, "Invalid cross-device link")  # EXDEV, as between two file systems

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(verifier_container.os, "link", no_link)
        verifier_container.link_or_copy(str(source), str(target))
    assert target.read_text() == "data" and target.stat().st_ino != source.stat().st_ino
