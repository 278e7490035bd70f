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
