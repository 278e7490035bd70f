"""``mlebench doctor --agent mini-swe:…|aide:…``: the gateway upstream setting is honoured, a
server on this machine is probed (models, context, the agent's answer cap), and the image profile
the agent's folder builds FROM is checked. The servers here are FAKES on loopback."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench import doctor_llm
from tests.cli.test_doctor import machine, run
from tests.real_model.conftest import free_port

__all__ = ["machine"]


def fake_models_server(listing: dict[str, Any]) -> ThreadingHTTPServer:
    """A FAKE server answering ``GET /v1/models`` with ``listing`` (llama.cpp's shape or not)."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps(listing).encode()
            self.send_response(200 if self.path == "/v1/models" else 404)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, format: str, *args: Any) -> None:
            return

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def llama_listing(context: int) -> dict[str, Any]:
    meta = {"n_ctx": context, "n_ctx_train": 32768}
    return {"object": "list", "data": [{"id": "qwen2.5-coder-1.5b", "meta": meta}]}


@pytest.fixture
def keyed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The provider key set, and every profile image taken as built."""
    monkeypatch.setenv("OPENAI_API_KEY", "unused")
    monkeypatch.setattr(doctor_llm, "_profile_built", lambda profile: (True, f"{profile}:tag"))


def port_of(server: ThreadingHTTPServer) -> int:
    return int(server.server_address[1])


@pytest.mark.parametrize(
    ("context", "status", "said"),
    [
        (32768, "ok", "context 32768 tokens (the model's own: 32768)"),
        (8192, "warn", "holds about ten steps"),
    ],
)
def test_the_upstream_setting_is_honoured_and_the_local_server_probed(
    machine: list[str],
    keyed: None,
    capsys: pytest.CaptureFixture[str],
    context: int,
    status: str,
    said: str,
) -> None:
    server = fake_models_server(llama_listing(context))
    try:
        upstream = f"openai=local:{port_of(server)}"
        argv = (*machine, "--agent", "mini-swe:qwen2.5-coder-1.5b", "--gateway-upstream", upstream)
        code, table = run(capsys, *argv)
    finally:
        server.shutdown()
    assert code == 0
    url = f"http://127.0.0.1:{port_of(server)}/v1"
    assert table["llm gateway"].startswith("ok") and f"openai ({url})" in table["llm gateway"]
    row = table["llm server"]
    assert row.startswith(status) and f"{url} serves qwen2.5-coder-1.5b" in row and said in row
    assert "the agent caps answers at 2048 tokens" in row  # mini-swe's folder sets it


def test_the_upstream_from_the_environment_counts_too_and_nothing_answering_fails(
    machine: list[str],
    keyed: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    port = free_port()
    monkeypatch.setenv("MLEBENCH_GATEWAY_UPSTREAM", f"openai=local:{port}")
    code, table = run(capsys, *machine, "--agent", "aide:qwen2.5-coder-1.5b")
    assert code == 1
    row = table["llm server"]
    assert row.startswith("FAIL") and f"nothing answers http://127.0.0.1:{port}/v1/models" in row
    assert f"mlebench model serve --model MODEL --port {port}" in row


def test_a_server_without_the_agents_model_warns(machine: list[str], keyed: None) -> None:
    server = fake_models_server({"data": [{"id": "llama3"}]})  # Ollama's and vLLM's shape
    try:
        url = f"http://127.0.0.1:{port_of(server)}/v1"
        checks = doctor_llm.check_llm("aide:qwen2.5-coder-1.5b", None, (("openai", url),))
    finally:
        server.shutdown()
    (line,) = [check for check in checks if check.name == "llm server"]
    assert line.status == "warn" and "does not list qwen2.5-coder-1.5b" in line.fix
    assert "the agent caps answers at 4096 tokens" in line.detail  # AIDE's folder sets it


def test_the_openai_default_is_not_probed(keyed: None) -> None:
    names = [check.name for check in doctor_llm.check_llm("mini-swe:gpt-4o-mini", None)]
    assert names == ["llm gateway", "llm prices"]


def test_the_agents_image_profile_is_checked_and_the_first_build_named(
    machine: list[str],
    keyed: None,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, table = run(capsys, *machine, "--agent", "mini-swe:gpt-4o-mini")
    assert (
        table["agent image"].startswith("ok")
        and "FROM the ml profile, built" in table["agent image"]
    )
    monkeypatch.setattr(doctor_llm, "_profile_built", lambda profile: (False, "t"))
    code, table = run(capsys, *machine, "--agent", "aide:gpt-4o-mini")
    assert code == 0  # a warning: the first run builds it
    row = table["agent image"]
    assert row.startswith("warn") and "not built: the first run builds it" in row
    assert "~GBs" in row and "mlebench sandbox build --profile ml" in row


def test_an_agent_without_a_dockerfile_has_no_image_line(tmp_path: Path) -> None:
    folder = tmp_path / "plain"
    folder.mkdir()
    (folder / "config.yaml").write_text("plain:\n  start: start.sh\n")
    assert doctor_llm.check_agent_image(str(folder), None, True) is None


@pytest.mark.parametrize(
    ("args", "cap"),
    [
        (("--model", "m", "--max-tokens", "2048"), 2048),
        (("agent.max_tokens=4096",), 4096),
        (("--max-tokens", "0"), None),
        (("--model", "m"), None),
    ],
)
def test_the_agents_answer_cap_is_read_from_its_kwargs(
    args: tuple[str, ...], cap: int | None
) -> None:
    assert doctor_llm.answer_cap(args) == cap
