"""A harness-side client of the gateway's unix socket: one JSON request, one answer.

The harness's own model calls (the integrity judge, the familiarity measure) go through a
gateway started for them, like an agent's calls, so they are counted and priced the same way.
"""

from __future__ import annotations

import http.client
import json
import socket
from pathlib import Path
from typing import Any

TIMEOUT_SECONDS = 600


class UnixConnection(http.client.HTTPConnection):
    """HTTP over the gateway's unix socket."""

    def __init__(self, path: Path, timeout: float = TIMEOUT_SECONDS) -> None:
        super().__init__("localhost", timeout=timeout)
        self.socket_path = path

    def connect(self) -> None:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(self.timeout)
        sock.connect(str(self.socket_path))
        self.sock = sock


def post_json(path: Path, token: str, route: str, payload: dict[str, Any]) -> tuple[int, Any]:
    """POST ``payload`` to ``route`` with the run token; the status and the decoded JSON answer
    (its text when the answer is not JSON)."""
    connection = UnixConnection(path)
    try:
        headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
        connection.request("POST", route, body=json.dumps(payload).encode(), headers=headers)
        answer = connection.getresponse()
        raw = answer.read()
    finally:
        connection.close()
    try:
        return answer.status, json.loads(raw)
    except ValueError:
        return answer.status, raw.decode("utf-8", errors="replace")
