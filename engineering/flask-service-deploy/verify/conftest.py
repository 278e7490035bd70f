"""The service under test: started by the verifier from the agent's ``start.sh``.

Every start gets a port picked here (never the agent's ``$PORT``) and a fresh ``$APP_LOG`` in a
directory that does not exist yet. The service runs in its own process group, killed at the end.
"""

from __future__ import annotations

import json
import os
import socket
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from mlebench_agent_run import AgentProcess, start_agent

READY_WITHIN_S = 30.0


@dataclass
class Response:
    status: int
    body: bytes
    headers: dict[str, str]

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Service:
    port: int
    log: Path
    process: AgentProcess
    ready_at: float | None = None
    output: Path = field(default_factory=Path)

    def request(
        self, method: str, path: str, body: bytes | None = None, timeout: float = 5
    ) -> Response:
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}", data=body, method=method,
            headers={"Content-Type": "application/json"} if body is not None else {},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=timeout) as reply:
                return Response(reply.status, reply.read(), dict(reply.headers))
        except urllib.error.HTTPError as error:
            return Response(error.code, error.read(), dict(error.headers))

    def post_json(self, path: str, payload: Any) -> Response:
        return self.request("POST", path, json.dumps(payload).encode())

    def healthy(self) -> bool:
        try:
            return self.request("GET", "/healthz", timeout=2).status == 200
        except OSError:
            return False

    def wait_ready(self, within: float = READY_WITHIN_S) -> bool:
        deadline = time.monotonic() + within
        while time.monotonic() < deadline:
            if self.healthy():
                self.ready_at = time.monotonic()
                return True
            time.sleep(0.2)
        return False

    def tail(self) -> str:
        try:
            return self.output.read_text("utf-8", "replace")[-400:]
        except OSError:
            return ""

    def stop(self) -> None:
        self.process.stop(grace_s=1.5)


def pick_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_service(work: Path) -> Service:
    port = pick_port()
    folder = Path(tempfile.mkdtemp(prefix="svc-"))
    log = folder / "logs" / "app.log"  # logs/ does not exist: the service makes it
    output = folder / "start.out"
    env = {"PORT": str(port), "APP_LOG": str(log)}
    process = start_agent(
        ["bash", "start.sh"], log=output, cwd=work, writable=(work, folder), env=env, home=folder
    )
    return Service(port=port, log=log, process=process, output=output)


def log_lines(log: Path) -> list[str]:
    try:
        return [line for line in log.read_text("utf-8").splitlines() if line.strip()]
    except OSError:
        return []


@pytest.fixture(scope="session")
def hidden() -> dict[str, Any]:
    return json.loads((Path(os.environ["PRIVATE_DIR"]) / "hidden_rows.json").read_text("utf-8"))


@pytest.fixture(scope="session")
def service() -> Iterator[Service]:
    """The main instance: started once; its readiness is the first check."""
    started = start_service(Path(os.environ["WORK_DIR"]))
    started.wait_ready()
    yield started
    started.stop()


@pytest.fixture
def ready(service: Service) -> Service:
    if service.ready_at is None:
        pytest.fail(f"the service never answered /healthz: {service.tail()}")
    return service


def gunicorn_workers(group: int) -> list[int]:
    """Worker pids of the service started as process group ``group``: gunicorn processes whose
    parent is a gunicorn process too."""
    table: dict[int, tuple[int, int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmd = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            table[int(entry.name)] = (int(fields[1]), int(fields[2]), cmd)
        except (OSError, ValueError, IndexError):
            continue
    return sorted(
        pid
        for pid, (ppid, pgid, cmd) in table.items()
        if pgid == group and "gunicorn" in cmd and "gunicorn" in table.get(ppid, (0, 0, ""))[2]
    )
