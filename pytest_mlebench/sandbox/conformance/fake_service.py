"""A fake host service, for the conformance suite: proves a backend attaches *any* service.

:class:`FakeEchoService` is no part of the harness. It is the smallest service that uses every
part of the mechanism (:mod:`pytest_mlebench.sandbox.services`): a socket endpoint on the host
(:class:`~pytest_mlebench.sandbox.socket_endpoint.SocketEndpoint`) that echoes the ``text`` of
each request, a note file it writes into the service folder, two variables naming them, and a
wrapper that marks the agent's command. A backend that passes the suite's host-service checks
with it serves a new service unchanged.
"""

from __future__ import annotations

import socket
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, ClassVar

from pytest_mlebench.sandbox.services import HostService, ServiceSite
from pytest_mlebench.sandbox.socket_endpoint import SocketEndpoint, header_text

SOCKET_NAME = "fake-echo.sock"
NOTE_NAME = "fake-echo.txt"
NOTE_TEXT = "written by the fake echo service"
SOCKET_ENV = "FAKE_ECHO_SOCKET"
NOTE_ENV = "FAKE_ECHO_NOTE"
WRAPPED_ENV = "FAKE_ECHO_WRAPPED"


class EchoEndpoint(SocketEndpoint):
    """Answers each request with ``{"echo": <its text>}`` and keeps what it heard."""

    thread_name = "mlebench-fake-echo"

    def __init__(self, socket_path: Path) -> None:
        super().__init__(socket_path, min_interval=0.0)
        self.heard: list[str] = []

    def handle(self, header: dict[str, Any], reader: BinaryIO, conn: socket.socket) -> Any:
        text = header_text(header, "text", "")
        self.heard.append(text)
        return {"echo": text}


@dataclass(eq=False)
class FakeEchoService(HostService):
    """A fake host service (tests only): echo socket, note file, variables, a command wrapper."""

    name: ClassVar[str] = "fake-echo"
    endpoint: EchoEndpoint | None = field(default=None, init=False, repr=False)
    stopped: bool = field(default=False, init=False)

    def start(self, site: ServiceSite) -> None:
        if self.endpoint is None:
            self.endpoint = EchoEndpoint(site.host_dir / SOCKET_NAME)
            self.endpoint.start()
            (site.host_dir / NOTE_NAME).write_text(NOTE_TEXT, "utf-8")
            (site.host_dir / NOTE_NAME).chmod(0o644)

    def stop(self) -> None:
        if self.endpoint is not None:
            self.endpoint.stop()
        self.stopped = True

    def env(self, site: ServiceSite) -> dict[str, str]:
        return {SOCKET_ENV: site.inside(SOCKET_NAME), NOTE_ENV: site.inside(NOTE_NAME)}

    def wrap(self, command: Sequence[str], site: ServiceSite) -> list[str]:
        return ["env", f"{WRAPPED_ENV}=1", *command]

    @property
    def heard(self) -> list[str]:
        """The texts the agent sent, in order (kept after :meth:`stop`)."""
        return list(self.endpoint.heard) if self.endpoint is not None else []

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "endpoint": None}


#: A snippet for ``python -c`` inside the sandbox: asks the echo service and prints what it saw.
ECHO_CLIENT = f"""
import json, os, socket
sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
sock.connect(os.environ[{SOCKET_ENV!r}])
sock.sendall(json.dumps({{"size": 0, "text": "hello from inside"}}).encode() + b"\\n")
print("answer", sock.makefile("rb").readline().decode().strip())
print("wrapped", os.environ.get({WRAPPED_ENV!r}))
print("note", open(os.environ[{NOTE_ENV!r}]).read())
"""
