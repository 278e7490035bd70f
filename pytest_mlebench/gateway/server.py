"""The gateway's HTTP server: OpenAI-compatible routes on a unix socket, forwarded upstream.

Host side. A sandbox reaches the socket through its in-sandbox forwarder
(:mod:`pytest_mlebench.gateway.forwarder`); no network route leaves the sandbox. Each request must
carry the run's token (``Authorization: Bearer`` or ``x-api-key``); the gateway swaps it for the
provider's real key, which it read from the host's environment when it started. This module holds
the lifecycle (start, stop, travel to another machine, summary); one call's handling is
:mod:`~pytest_mlebench.gateway.exchange`, the routes and upstream request
:mod:`~pytest_mlebench.gateway.upstream`, the relay of answers
:mod:`~pytest_mlebench.gateway.relay`.
Every call lands in the transcript and the :class:`~pytest_mlebench.gateway.ledger.Ledger`; once the
run's budget is spent, calls are answered with 429 and ``budget_exhausted`` without going upstream.
"""

from __future__ import annotations

import http.server
import logging
import os
import secrets
import socketserver
import threading
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pytest_mlebench.gateway.config import SECRET, Budget, GatewayConfig, GatewayError, Provider
from pytest_mlebench.gateway.exchange import Exchange
from pytest_mlebench.gateway.ledger import Ledger
from pytest_mlebench.gateway.prices import PriceTable
from pytest_mlebench.gateway.transcript import Transcript

log = logging.getLogger(__name__)


class Gateway:
    """One run's gateway: start it on a socket, let the agent call it, read its summary."""

    def __init__(
        self,
        config: GatewayConfig,
        prices: PriceTable,
        transcript_path: Path,
        *,
        budget: Budget | None = None,
        environ: Mapping[str, str] | None = None,
    ) -> None:
        self.config = config
        self.token = "mlebench-run-" + secrets.token_hex(16)
        self.ledger = Ledger(prices, budget or Budget())
        self.transcript_path = transcript_path
        self.environ = environ if environ is not None else os.environ
        self.socket_path: Path | None = None
        self._server: _UnixHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def started(self) -> bool:
        return self._server is not None

    def resolved_keys(self) -> dict[str, str | None]:
        """Each provider's key from the host's environment.

        Raises:
            GatewayError: A secret a provider names is not set (the message says which).
        """
        return {name: p.resolved_key(self.environ) for name, p in self.providers.items()}

    def __getstate__(self) -> dict[str, Any]:
        """A stopped copy for another machine (a Ray node, and back with its ledger).

        Of the host's environment it carries only the secrets the providers name, so the
        provider keys travel with the run and nothing else of the host does; the server, its
        thread and the open transcript stay behind.
        """
        state = dict(self.__dict__)
        names = {n for p in self.providers.values() for n in SECRET.findall(p.api_key or "")}
        state["environ"] = {name: self.environ[name] for name in names if name in self.environ}
        state.update(_server=None, _thread=None)
        return state

    def start(self, socket_path: Path) -> None:
        """Resolve the provider keys on the host and serve on ``socket_path``.

        Raises:
            GatewayError: A secret is missing, or the socket cannot be made (the message says
                which path and why).
        """
        if self._server is not None:
            return
        keys = self.resolved_keys()
        known = [key for key in keys.values() if key]
        exchange = Exchange(
            token=self.token,
            providers=self.providers,
            keys=keys,
            ledger=self.ledger,
            transcript=Transcript(self.transcript_path, [self.token, *known]),
        )
        try:
            socket_path.parent.mkdir(parents=True, exist_ok=True)
            socket_path.unlink(missing_ok=True)
            server = _UnixHTTPServer(str(socket_path), _Handler)
            os.chmod(socket_path, 0o666)  # the agent runs as another, unprivileged user
        except OSError as exc:
            raise GatewayError(
                f"the LLM gateway cannot listen on {socket_path}: {exc.strerror or exc}; "
                "the sandbox's socket folder must be writable by the harness (check TMPDIR)"
            ) from None
        server.exchange = exchange
        self._server, self.socket_path = server, socket_path
        self._thread = threading.Thread(
            target=server.serve_forever,
            kwargs={"poll_interval": 0.2},
            daemon=True,
            name="mlebench-gateway",
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop serving; safe to call twice. The ledger and transcript stay readable."""
        server, self._server = self._server, None
        if server is None:
            return
        server.shutdown()
        server.server_close()
        if self.socket_path is not None:
            self.socket_path.unlink(missing_ok=True)

    @property
    def providers(self) -> Mapping[str, Provider]:
        return self.config.providers

    def summary(self) -> dict[str, Any]:
        """The run record's ``gateway`` entry."""
        written = self.transcript_path.is_file()
        return self.ledger.summary(self.transcript_path.name if written else None)


class _UnixHTTPServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    exchange: Exchange


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _UnixHTTPServer
    server_version = "mlebench-gateway"

    def do_POST(self) -> None:
        self.server.exchange.handle(self)

    do_GET = do_POST

    def address_string(self) -> str:  # a unix socket has no peer address
        return "sandbox"

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("gateway: " + format, *args)
