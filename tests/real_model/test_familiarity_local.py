"""``mlebench familiarity`` against the real local model server (SmolLM2-135M, llama.cpp).

llama.cpp's server scores the answer's tokens only: it ignores vLLM's ``prompt_logprobs`` and the
completions API's ``echo`` (checked on ``xllamacpp`` 2026.10.11549), so it cannot measure
familiarity. The command says so, naming what can, instead of reporting made-up numbers.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.local_model import LocalModelServer
from tests.real_model.conftest import MODEL


def test_the_local_server_is_reported_as_returning_no_prompt_logprobs(
    model_server: LocalModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "local-server-needs-no-key")
    code = main([
        "familiarity", "--model", MODEL, "-c", "digits",
        "--gateway-upstream", f"openai={model_server.base_url}",
        "--transcript", str(tmp_path / "t.jsonl"),
    ])  # fmt: skip
    assert code == 1
    err = capsys.readouterr().err
    assert "returned no prompt log-probabilities (a vLLM server does" in err
