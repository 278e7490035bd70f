"""The in-sandbox validator: the client script talks to the host server over a unix socket."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from pytest_mlebench.graders import ScoreResult
from pytest_mlebench.sandbox.validator import CLIENT_SCRIPT, ValidatorServer


def fake_validate(path: Path) -> ScoreResult:
    """A named fake of the grading check: valid when the file starts with the right header."""
    if path.read_bytes().startswith(b"id,label\n"):
        return ScoreResult(valid=True)
    return ScoreResult.invalid("missing column 'label'")


@pytest.fixture
def server(tmp_path: Path):
    server = ValidatorServer(tmp_path / "sock" / "v.sock", fake_validate, min_interval=0.0)
    server.start()
    yield server
    server.stop()


def ask(server: ValidatorServer, file: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(CLIENT_SCRIPT), str(file)],
        env={"MLEBENCH_VALIDATOR_SOCKET": str(server.socket_path)},
        capture_output=True,
        text=True,
        timeout=30,
    )


def test_valid_and_invalid_answers_are_logged(server: ValidatorServer, tmp_path: Path) -> None:
    good, bad = tmp_path / "good.csv", tmp_path / "bad.csv"
    good.write_text("id,label\n1,0\n")
    bad.write_text("id,target\n1,0\n")
    ok = ask(server, good)
    assert ok.returncode == 0
    assert "valid" in ok.stdout
    no = ask(server, bad)
    assert no.returncode == 1
    assert "invalid: missing column 'label'" in no.stdout
    assert [(c.valid, c.reason) for c in server.calls] == [
        (True, None),
        (False, "missing column 'label'"),
    ]
    assert "score" not in ok.stdout + no.stdout


def test_large_file_is_streamed(server: ValidatorServer, tmp_path: Path) -> None:
    big = tmp_path / "big.csv"
    big.write_bytes(b"id,label\n" + b"123456,1\n" * 300_000)
    assert ask(server, big).returncode == 0


def test_rate_limit(tmp_path: Path) -> None:
    server = ValidatorServer(tmp_path / "v.sock", fake_validate, min_interval=60.0)
    server.start()
    try:
        file = tmp_path / "s.csv"
        file.write_text("id,label\n")
        assert ask(server, file).returncode == 0
        limited = ask(server, file)
        assert limited.returncode == 2
        assert "rate limited" in limited.stdout
        assert len(server.calls) == 1
    finally:
        server.stop()


def test_missing_file_and_unreachable_server(tmp_path: Path) -> None:
    env = {"MLEBENCH_VALIDATOR_SOCKET": str(tmp_path / "nothing.sock")}
    missing = subprocess.run(
        [sys.executable, str(CLIENT_SCRIPT), str(tmp_path / "none.csv")],
        env=env,
        capture_output=True,
        text=True,
    )
    assert missing.returncode == 1
    assert "is not a file" in missing.stdout
    file = tmp_path / "s.csv"
    file.write_text("id,label\n")
    down = subprocess.run(
        [sys.executable, str(CLIENT_SCRIPT), str(file)], env=env, capture_output=True, text=True
    )
    assert down.returncode == 2
    assert "could not be reached" in down.stderr
