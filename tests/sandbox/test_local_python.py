"""The local backend's ``python3``: the harness's own interpreter, or the one a user names.

An agent folder's ``start.sh`` calls ``python3``; when pytest runs as ``.venv/bin/pytest`` the
venv is not on ``PATH``, and a ``python3`` found there would lack the harness's packages.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_mlebench.sandbox.conformance import make_spec, prepare_competition_dirs
from pytest_mlebench.sandbox.local import LocalSandbox


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[LocalSandbox]:
    public, _ = prepare_competition_dirs(tmp_path)
    box = LocalSandbox(make_spec(public))
    box.start()
    yield box
    box.stop()


def python3_of(box: LocalSandbox) -> str:
    done = box.exec(["sh", "-c", "command -v python3"], timeout=30)
    assert done.exit_code == 0, done.output_tail
    return done.output_tail.strip()


def test_python3_is_the_harness_interpreter_when_its_venv_is_not_on_path(
    sandbox: LocalSandbox, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    monkeypatch.delenv("MLEBENCH_LOCAL_PYTHON", raising=False)
    assert python3_of(sandbox) == str(Path(sys.executable).parent / "python3")


def test_mlebench_local_python_names_another_interpreter(
    sandbox: LocalSandbox, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    other = tmp_path / "agent-env" / "bin"
    other.mkdir(parents=True)
    (other / "python3").symlink_to(sys.executable)
    monkeypatch.setenv("MLEBENCH_LOCAL_PYTHON", str(other / "python3"))
    assert python3_of(sandbox) == str(other / "python3")
