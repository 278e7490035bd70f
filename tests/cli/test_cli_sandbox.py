"""``mlebench sandbox``: profiles in ``status``, bad profiles and locks as clear messages."""

from __future__ import annotations

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.sandbox import docker_status


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_an_unknown_profile_is_refused_with_the_choices(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exited:
        main(["sandbox", "build", "--profile", "gpu"])
    assert exited.value.code == 2
    assert "invalid choice: 'gpu' (choose from 'base', 'ml', 'eng')" in capsys.readouterr().err


def test_the_base_profile_has_no_lock_to_make(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "sandbox", "lock", "--profile", "base")
    assert code == 1
    assert "the base profile has no lock: it uses Debian's packages" in err


def test_build_help_names_the_profiles_and_the_wheelhouse(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        main(["sandbox", "build", "--help"])
    out = capsys.readouterr().out
    assert "--profile {base,ml,eng}" in out and "--wheelhouse DIR" in out


def test_status_lists_every_profile_with_its_tag(capsys: pytest.CaptureFixture[str]) -> None:
    ok, why = docker_status()
    if not ok:
        pytest.skip(f"no Docker engine: {why}")
    code, out, _ = run(capsys, "sandbox", "status")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "docker: available"
    assert lines[1].startswith("profile base  pytest-mlebench-agent:")
    assert lines[2].startswith("profile ml    pytest-mlebench-ml:")
