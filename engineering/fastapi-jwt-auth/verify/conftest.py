"""The API under test: ``uvicorn main:app`` started by the verifier from the agent's workspace.

It runs with a ``JWT_SECRET`` of the verifier's own (never the agent's), on a port picked here,
in its own process group; its stdout/stderr is kept for the no-secret-in-logs check.
"""

from __future__ import annotations

import json
import os
import secrets
import socket
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from mlebench_agent_run import AgentProcess, python_tool, start_agent

READY_WITHIN_S = 30.0


@dataclass
class Api:
    port: int
    secret: str
    process: AgentProcess
    output: Path
    ready: bool = False

    def call(
        self, method: str, path: str, payload: Any = None, token: str | None = None,
        header: str | None = None,
    ) -> tuple[int, Any]:  # fmt: skip
        headers = {"Content-Type": "application/json"} if payload is not None else {}
        if token is not None:
            headers["Authorization"] = f"Bearer {token}"
        if header is not None:
            headers["Authorization"] = header
        body = json.dumps(payload).encode() if payload is not None else None
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=body, method=method, headers=headers
        )
        try:
            with urllib.request.urlopen(request, timeout=5) as reply:
                status, raw = reply.status, reply.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        try:
            return status, json.loads(raw)
        except ValueError:
            return status, raw.decode("utf-8", "replace")

    def login(self, username: str, password: str) -> tuple[int, Any]:
        return self.call("POST", "/login", {"username": username, "password": password})

    def log_text(self) -> str:
        return self.output.read_text("utf-8", "replace")


def pick_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.fixture(scope="session")
def users() -> dict[str, list[str]]:
    return json.loads((Path(os.environ["PRIVATE_DIR"]) / "users.json").read_text("utf-8"))


@pytest.fixture(scope="session")
def api() -> Iterator[Api]:
    port, secret = pick_port(), secrets.token_urlsafe(32)
    output = Path(tempfile.mkdtemp(prefix="api-")) / "server.log"
    work = Path(os.environ["WORK_DIR"])
    command = python_tool(
        "uvicorn", "main:app", "--app-dir", str(work), "--host", "127.0.0.1", "--port", str(port)
    )
    process = start_agent(
        command, log=output, cwd=work, writable=(work,), env={"JWT_SECRET": secret}
    )
    started = Api(port=port, secret=secret, process=process, output=output)
    deadline = time.monotonic() + READY_WITHIN_S
    while time.monotonic() < deadline and process.poll() is None:
        try:
            if started.call("GET", "/health")[0] == 200:
                started.ready = True
                break
        except OSError:
            time.sleep(0.2)
    yield started
    process.stop()


@pytest.fixture
def up(api: Api) -> Api:
    if not api.ready:
        pytest.fail(f"uvicorn main:app never answered /health: {api.log_text()[-400:]}")
    return api


@pytest.fixture(scope="session")
def demo_token(api: Api, users: dict[str, list[str]]) -> str:
    status, body = api.login(*users["demo"])
    if status != 200 or not isinstance(body, dict) or "access_token" not in body:
        pytest.fail(f"POST /login with the demo user answered {status}: {str(body)[:200]}")
    return str(body["access_token"])
