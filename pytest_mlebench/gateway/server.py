"""The gateway's HTTP server: OpenAI-compatible routes on a unix socket, forwarded upstream.

Host side. A sandbox reaches the socket through its in-sandbox forwarder
(:mod:`pytest_mlebench.gateway.forwarder`); no network route leaves the sandbox. Each request must
carry the run's token (``Authorization: Bearer`` or ``x-api-key``); the gateway swaps it for the
provider's real key, which it read from the host's environment when it started. Answers stream
through as they come (server-sent events included); an upstream error goes back with its status and
body; nothing is retried here (the agent owns retries). Every call lands in the transcript and the
:class:`~pytest_mlebench.gateway.ledger.Ledger`; once the run's budget is spent, calls are answered
with 429 and ``budget_exhausted`` without going upstream.
"""

from __future__ import annotations

import http.server
import json
import logging
import os
import secrets
import socketserver
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from pytest_mlebench.gateway.config import SECRET, Budget, GatewayConfig, GatewayError, Provider
from pytest_mlebench.gateway.ledger import Ledger
from pytest_mlebench.gateway.prices import PriceTable
from pytest_mlebench.gateway.transcript import Transcript, body_for_log
from pytest_mlebench.gateway.usage import StreamUsage, Usage, usage_of
from pytest_mlebench.timestamps import utc_timestamp

log = logging.getLogger(__name__)

MAX_REQUEST_BYTES = 64 * 1024**2
UPSTREAM_TIMEOUT_SECONDS = 600
CHUNK = 1 << 16
ANTHROPIC_VERSION = "2023-06-01"
FORWARDED_REQUEST_HEADERS = (
    "content-type",
    "accept",
    "openai-beta",
    "anthropic-version",
    "anthropic-beta",
)
FORWARDED_RESPONSE_PREFIXES = (
    "content-type",
    "retry-after",
    "x-request-id",
    "request-id",
    "x-ratelimit-",
    "anthropic-ratelimit-",
    "openai-",
)


@dataclass(frozen=True)
class Route:
    """An endpoint the gateway serves: which provider, and the path under its base URL."""

    provider: str
    upstream_path: str
    kind: str


ROUTES: Mapping[tuple[str, str], Route] = {
    ("POST", "/v1/chat/completions"): Route("openai", "/chat/completions", "chat"),
    ("POST", "/v1/responses"): Route("openai", "/responses", "responses"),
    ("POST", "/v1/embeddings"): Route("openai", "/embeddings", "embeddings"),
    ("GET", "/v1/models"): Route("openai", "/models", "models"),
    ("POST", "/v1/messages"): Route("anthropic", "/v1/messages", "messages"),
}


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
        self._keys: dict[str, str | None] = {}
        self._transcript: Transcript | None = None
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
        state.update(_keys={}, _transcript=None, _server=None, _thread=None)
        return state

    def start(self, socket_path: Path) -> None:
        """Resolve the provider keys on the host and serve on ``socket_path``.

        Raises:
            GatewayError: A secret is missing, or the socket cannot be made (the message says
                which path and why).
        """
        if self._server is not None:
            return
        self._keys = self.resolved_keys()
        self._transcript = Transcript(self.transcript_path, [self.token, *self._known_keys()])
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
        server.gateway = self
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

    def _known_keys(self) -> list[str]:
        return [key for key in self._keys.values() if key]

    # -- one request ---------------------------------------------------------------------------

    def handle(self, request: _Handler) -> None:
        started = time.monotonic()
        route = ROUTES.get((request.command, request.path.split("?", 1)[0]))
        entry: dict[str, Any] = {
            "time": utc_timestamp(),
            "method": request.command,
            "path": request.path,
        }
        if route is None:
            known = ", ".join(f"{m} {p}" for m, p in ROUTES)
            self._refuse(
                request,
                entry,
                started,
                404,
                "not_found",
                f"the gateway does not serve {request.command} {request.path}; it serves {known}",
            )
            return
        if not self._authorised(request):
            self._refuse(
                request,
                entry,
                started,
                401,
                "invalid_token",
                "the gateway takes the run's token (OPENAI_API_KEY in the sandbox)",
            )
            return
        provider = self.providers.get(route.provider)
        if provider is None:
            configured = ", ".join(self.providers) or "none"
            self._refuse(
                request,
                entry,
                started,
                404,
                "provider_not_configured",
                f"provider {route.provider!r} is not configured for this agent "
                f"(configured: {configured}); add it under 'gateway:' in the agent's "
                "config.yaml",
            )
            return
        self._forward(request, route, provider, entry, started)

    def _authorised(self, request: _Handler) -> bool:
        bearer = request.headers.get("Authorization", "")
        given = request.headers.get("x-api-key") or bearer.removeprefix("Bearer ").strip()
        return secrets.compare_digest(given.encode(), self.token.encode())

    def _forward(
        self,
        request: _Handler,
        route: Route,
        provider: Provider,
        entry: dict[str, Any],
        started: float,
    ) -> None:
        body = _read_body(request)
        if body is None:
            self._refuse(
                request,
                entry,
                started,
                413,
                "request_too_large",
                f"request bodies are limited to {MAX_REQUEST_BYTES} bytes",
            )
            return
        payload = _json_or_none(body)
        model = payload.get("model") if isinstance(payload, dict) else None
        entry.update(provider=provider.name, model=model, request=body_for_log(body))
        refusal = self.ledger.refusal(model) if route.kind != "models" else None
        if refusal is not None:
            self._refuse(
                request, entry, started, 429 if refusal[0] == "budget_exhausted" else 400, *refusal
            )
            return
        if route.kind == "chat" and isinstance(payload, dict) and payload.get("stream"):
            body = _with_usage_in_stream(payload)
        upstream = _upstream_request(request, route, provider, self._keys.get(provider.name), body)
        self._relay(request, upstream, model, entry, started)

    def _relay(
        self,
        request: _Handler,
        upstream: urllib.request.Request,
        model: str | None,
        entry: dict[str, Any],
        started: float,
    ) -> None:
        try:
            answer: Any = urllib.request.urlopen(upstream, timeout=UPSTREAM_TIMEOUT_SECONDS)
        except urllib.error.HTTPError as error:
            answer = error  # an upstream error answer: passed through with its status
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            self.ledger.charge(Usage(), model, 502)  # a failed call: counted, never silent
            self._refuse(
                request,
                entry,
                started,
                502,
                "upstream_unreachable",
                f"the gateway could not reach {upstream.full_url}: {reason}",
            )
            return
        status = int(answer.status if hasattr(answer, "status") else answer.code)
        with answer:
            usage, logged, broken = _pass_through(request, status, answer.headers, answer)
        cost = self.ledger.charge(usage, model, status)
        if broken:
            entry["error"] = {"type": "stream_broken", "message": broken}
        entry.update(
            status=status,
            response=logged,
            usage=_usage_entry(usage),
            cost_usd=cost,
            latency_seconds=round(time.monotonic() - started, 3),
        )
        self._log(entry)

    def _refuse(
        self,
        request: _Handler,
        entry: dict[str, Any],
        started: float,
        status: int,
        kind: str,
        message: str,
    ) -> None:
        body = json.dumps(
            {
                "error": {
                    "message": f"mlebench gateway: {message}",
                    "type": kind,
                    "code": kind,
                    "param": None,
                }
            }
        ).encode()
        try:
            _send(request, status, {"Content-Type": "application/json"}, body)
        except OSError:
            log.debug("gateway client went away before the refusal")
        entry.update(
            status=status,
            error={"type": kind, "message": message},
            latency_seconds=round(time.monotonic() - started, 3),
        )
        self._log(entry)

    def _log(self, entry: dict[str, Any]) -> None:
        if self._transcript is not None:
            self._transcript.write(entry)


class _UnixHTTPServer(socketserver.ThreadingMixIn, socketserver.UnixStreamServer):
    daemon_threads = True
    gateway: Gateway


class _Handler(http.server.BaseHTTPRequestHandler):
    server: _UnixHTTPServer
    server_version = "mlebench-gateway"

    def do_POST(self) -> None:
        self.server.gateway.handle(self)

    do_GET = do_POST

    def address_string(self) -> str:  # a unix socket has no peer address
        return "sandbox"

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("gateway: " + format, *args)


def _read_body(request: _Handler) -> bytes | None:
    size = int(request.headers.get("Content-Length") or 0)
    if size > MAX_REQUEST_BYTES:
        return None
    return request.rfile.read(size) if size else b""


def _json_or_none(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


def _with_usage_in_stream(payload: dict[str, Any]) -> bytes:
    """A streamed chat request that asks for the usage chunk (how the gateway counts tokens)."""
    options = payload.get("stream_options")
    options = dict(options) if isinstance(options, dict) else {}
    options.setdefault("include_usage", True)
    return json.dumps({**payload, "stream_options": options}).encode()


def _upstream_request(
    request: _Handler, route: Route, provider: Provider, key: str | None, body: bytes
) -> urllib.request.Request:
    headers = {
        name: value
        for name in FORWARDED_REQUEST_HEADERS
        if (value := request.headers.get(name)) is not None
    }
    if route.provider == "anthropic":
        headers.setdefault("anthropic-version", ANTHROPIC_VERSION)
        if key:
            headers["x-api-key"] = key
    elif key:
        headers["Authorization"] = f"Bearer {key}"
    data = body if request.command == "POST" else None
    url = provider.base_url + route.upstream_path
    return urllib.request.Request(url, data=data, headers=headers, method=request.command)


def _pass_through(
    request: _Handler, status: int, headers: Any, answer: IO[bytes]
) -> tuple[Usage, Any, str | None]:
    """Send the upstream answer to the agent as it arrives.

    Returns:
        The usage, the answer as the transcript keeps it, and why the relay broke off (the agent
        or the upstream went away mid-answer), else ``None``; what passed is still counted.
    """
    kept = {
        name: value
        for name, value in headers.items()
        if name.lower().startswith(FORWARDED_RESPONSE_PREFIXES)
    }
    streaming = str(headers.get("Content-Type", "")).startswith("text/event-stream")
    if not streaming:
        try:
            body = answer.read()
        except OSError as exc:
            message = f"the upstream answer broke off: {exc}"
            _send(request, 502, {"Content-Type": "text/plain"}, message.encode())
            return Usage(), None, message
        try:
            _send(request, status, kept, body)
        except OSError as exc:
            return usage_of(_json_or_none(body)), body_for_log(body), f"the agent went away: {exc}"
        return usage_of(_json_or_none(body)), body_for_log(body), None
    request.send_response(status)
    for name, value in kept.items():
        request.send_header(name, value)
    request.send_header("Connection", "close")
    request.end_headers()
    reader, events = StreamUsage(), bytearray()
    read = getattr(answer, "read1", answer.read)
    try:
        while chunk := read(CHUNK):
            reader.feed(chunk)
            events += chunk
            request.wfile.write(chunk)
            request.wfile.flush()
    except OSError as exc:
        return reader.finish(), body_for_log(bytes(events)), f"the stream broke off: {exc}"
    return reader.finish(), body_for_log(bytes(events)), None


def _send(request: _Handler, status: int, headers: Mapping[str, str], body: bytes) -> None:
    request.send_response(status)
    for name, value in headers.items():
        if name.lower() != "content-length":
            request.send_header(name, value)
    request.send_header("Content-Length", str(len(body)))
    request.end_headers()
    request.wfile.write(body)


def _usage_entry(usage: Usage) -> dict[str, Any]:
    return {
        "input_tokens": usage.input_tokens,
        "output_tokens": usage.output_tokens,
        "model": usage.model,
        "reported": usage.reported,
    }
