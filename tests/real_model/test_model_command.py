"""``mlebench model``: bad input is a clear error; ``serve`` runs the real server until Ctrl-C
and leaves no process behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.local_model.model_server import answers
from tests.real_model.conftest import free_port, installed_model
from tests.sandbox.conftest import answer_ctrl_c


def test_an_unknown_model_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["model", "serve", "--model", "gpt-17"]) == 1
    error = capsys.readouterr().err
    assert "unknown model 'gpt-17': give a .gguf file or one of smollm2-135m" in error


def test_a_missing_file_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["model", "serve", "--model", "/nowhere/m.gguf"]) == 1
    assert "the model file /nowhere/m.gguf does not exist" in capsys.readouterr().err


def test_list_names_every_known_model(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["model", "list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines] == ["smollm2-135m", "qwen2.5-coder-1.5b"]


@pytest.mark.real_model
@pytest.mark.timeout(300)
def test_serve_runs_until_ctrl_c_and_stops_the_server(tmp_path: Path) -> None:
    installed_model()  # the server's package and the default model, or a skip naming them
    port = free_port()
    command = [sys.executable, "-m", "pytest_mlebench.cli", "model", "serve", "--port", str(port)]
    command += ["--threads", "1", "--log", str(tmp_path / "server.log")]
    serving = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(Path.cwd())},
        preexec_fn=answer_ctrl_c,  # Ctrl-C reaches it also when this suite runs in the background
    )
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        assert serving.stdout is not None
        printed = [serving.stdout.readline() for _ in range(3)]  # loading, on, the upstream
        assert f"--mle-gateway-upstream openai=local:{port}" in printed[2], printed
        # the model's own context (SmolLM2's 8192) and the default cap that fits AIDE's answers
        assert "context 8192 tokens, answers capped at 4096 tokens" in printed[1], printed
        assert answers(base_url)
    finally:
        serving.send_signal(signal.SIGINT)  # also when an assertion failed: no server left
        try:
            _, err = serving.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            serving.kill()
            raise
    assert serving.returncode == 130, err
    assert "interrupted" in err
    assert not answers(base_url)
