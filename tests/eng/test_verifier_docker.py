"""The verifier in a fresh Docker container: results read through the engine, errors told apart.

Needs a Docker engine; the runs need the eng image (`mlebench sandbox build --profile eng`).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from pytest_mlebench.sandbox.verifier_phase import VerifierError, VerifierJob
from tests.eng.conftest import eng_image
from tests.eng.test_verifier_local import VERIFY
from tests.eng.test_verifier_local import _job as local_job


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


def test_a_verifier_past_its_limit_in_docker_is_an_error(tmp_path: Path) -> None:
    from pytest_mlebench.sandbox.docker.verifier_container import run_docker_verifier

    image = _engine_and_image()
    slow = 'import time, pytest\n\n@pytest.mark.check("F1")\ndef test_slow():\n    time.sleep(60)\n'
    job = replace(_job(tmp_path, image, slow), time_limit=3)
    with pytest.raises(VerifierError, match="past its 3 s limit"):
        run_docker_verifier(job)


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
