"""The local model server itself: answers on loopback under the model's name, reports real token
counts, stops (and frees its port) when told, and says clearly what is wrong when it cannot run."""

from __future__ import annotations

import socket
import sys
from pathlib import Path

import pytest

from pytest_mlebench.local_model import LocalModelError, LocalModelServer, ServerOptions
from pytest_mlebench.local_model.catalog import ModelFile, resolve_model
from pytest_mlebench.local_model.model_server import answers
from tests.real_model.conftest import MODEL, chat, free_port, installed_model

pytestmark = [pytest.mark.real_model, pytest.mark.timeout(600)]


def test_the_server_answers_on_loopback_under_the_model_name(
    model_server: LocalModelServer,
) -> None:
    assert model_server.base_url.startswith("http://127.0.0.1:")
    assert model_server.load_seconds is not None
    answer = chat(
        model_server.base_url,
        {"messages": [{"role": "user", "content": "Say hello."}], "max_tokens": 8},
    )
    assert answer["model"] == MODEL
    usage = answer["usage"]
    assert usage["prompt_tokens"] > 0
    assert 0 < usage["completion_tokens"] <= 8


def test_the_server_listens_on_loopback_only(model_server: LocalModelServer) -> None:
    port = int(model_server.base_url.rsplit(":", 1)[1].split("/")[0])
    outside = [a for a in _own_addresses() if not a.startswith("127.")]
    if not outside:
        pytest.skip("this machine has no address besides loopback")
    with socket.socket() as probe:
        probe.settimeout(2)
        assert probe.connect_ex((outside[0], port)) != 0


def _own_addresses() -> list[str]:
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: it only picks a source address
            return [probe.getsockname()[0]]
        except OSError:
            return []


def test_a_taken_port_is_a_clear_error(model_server: LocalModelServer, tmp_path: Path) -> None:
    port = int(model_server.base_url.rsplit(":", 1)[1].split("/")[0])
    second = LocalModelServer(resolve_model(MODEL), ServerOptions(port=port), tmp_path / "l")
    with pytest.raises(LocalModelError, match=f"port {port} .* already answers"):
        second.start()


def test_stop_ends_the_child_and_frees_the_port(tmp_path: Path) -> None:
    server = LocalModelServer(
        installed_model(), ServerOptions(free_port(), 2048, 1, 8), tmp_path / "log"
    )
    with server:
        assert answers(server.base_url)
        pid = server.pid
    assert not server.running()
    assert not answers(server.base_url)
    assert pid is not None
    assert not Path(f"/proc/{pid}").exists()  # stopped and reaped


def test_a_broken_model_file_is_an_error_quoting_the_log(tmp_path: Path) -> None:
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"not a gguf file")
    server = LocalModelServer(
        ModelFile("broken", broken), ServerOptions(free_port()), tmp_path / "log"
    )
    with pytest.raises(LocalModelError, match="exited with status .* end of its log"):
        server.start(timeout=120)
    assert not server.running()


def test_an_unknown_model_name_lists_the_known_ones() -> None:
    with pytest.raises(LocalModelError, match="smollm2-135m, qwen2.5-coder-1.5b"):
        resolve_model("gpt-17")


def test_the_child_names_the_extra_when_xllamacpp_is_missing(tmp_path: Path) -> None:
    import subprocess

    blocker = tmp_path / "block" / "xllamacpp.py"
    blocker.parent.mkdir()
    blocker.write_text("raise ImportError('blocked for this test')\n")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest_mlebench.local_model.child",
            "m.gguf",
            "m",
            "1",
            "1",
            "1",
            "1",
        ],
        env={"PYTHONPATH": f"{blocker.parent}:{Path.cwd()}", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 3
    assert "pytest-mlebench[local-model]" in done.stderr


def test_the_server_ends_when_its_parent_is_killed(tmp_path: Path) -> None:
    import subprocess
    import time

    installed_model()  # skips with the install command when the model is missing
    port = free_port()
    parent = (
        "import sys, time\n"
        "from pathlib import Path\n"
        "from pytest_mlebench.local_model import LocalModelServer, ServerOptions, resolve_model\n"
        f"server = LocalModelServer(resolve_model('{MODEL}'), ServerOptions({port}, 2048, 1, 8),"
        f" Path('{tmp_path}/log'))\n"
        "server.start()\nprint(server.pid, flush=True)\ntime.sleep(600)\n"
    )
    process = subprocess.Popen(
        [sys.executable, "-c", parent], stdout=subprocess.PIPE, text=True, cwd=Path.cwd()
    )
    assert process.stdout is not None
    child = int(process.stdout.readline())
    process.kill()  # no chance to stop its server
    process.wait()
    deadline = time.monotonic() + 30
    while Path(f"/proc/{child}").exists() and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not answers(f"http://127.0.0.1:{port}/v1")
