"""The agent's side of one call: read its request body, send an answer back, and pass an upstream
answer through as it arrives (server-sent events chunk by chunk), counting its token usage.

The usage is booked (``charge``) *before* the agent receives the answer's last bytes: an agent
that calls again the moment an answer is complete must meet a ledger that already holds that
answer, or a spent budget would let one more call through. A whole answer is charged before it
is sent; a stream holds its last chunk back until the usage it carries has been charged."""

from __future__ import annotations

import http.server
import json
from collections.abc import Callable, Mapping
from typing import IO, Any

from pytest_mlebench.gateway.transcript import body_for_log
from pytest_mlebench.gateway.usage import StreamUsage, Usage, usage_of

MAX_REQUEST_BYTES = 64 * 1024**2
CHUNK = 1 << 16
FORWARDED_RESPONSE_PREFIXES = (
    "content-type",
    "retry-after",
    "x-request-id",
    "request-id",
    "x-ratelimit-",
    "anthropic-ratelimit-",
    "openai-",
)

Request = http.server.BaseHTTPRequestHandler
Rewrite = Callable[[bytes], tuple[int, bytes]]


def read_body(request: Request) -> bytes | None:
    """The request's body, or ``None`` when it is over :data:`MAX_REQUEST_BYTES`."""
    size = int(request.headers.get("Content-Length") or 0)
    if size > MAX_REQUEST_BYTES:
        return None
    return request.rfile.read(size) if size else b""


def json_or_none(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        return None


def pass_through(
    request: Request,
    status: int,
    headers: Any,
    answer: IO[bytes],
    charge: Callable[[Usage], None],
    rewrite: Rewrite | None = None,
) -> tuple[Usage, Any, str | None]:
    """Send the upstream answer to the agent as it arrives, calling ``charge`` with its usage
    before the agent has the answer's end (module docstring); a whole (not streamed) answer goes
    through ``rewrite`` first when one is given (a capability bridge: the status and body the
    agent gets instead; the usage is the upstream answer's own).

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
        return _pass_whole(request, status, kept, answer, charge, rewrite)
    request.send_response(status)
    for name, value in kept.items():
        request.send_header(name, value)
    request.send_header("Connection", "close")
    request.end_headers()
    reader, events = StreamUsage(), bytearray()
    read = getattr(answer, "read1", answer.read)
    held = b""  # the latest chunk, sent on once the next one (or the end) has come
    try:
        while chunk := read(CHUNK):
            reader.feed(chunk)
            events += chunk
            if held:
                request.wfile.write(held)
                request.wfile.flush()
            held = chunk
    except OSError as exc:
        usage = reader.finish()
        charge(usage)
        return usage, body_for_log(bytes(events)), f"the stream broke off: {exc}"
    usage = reader.finish()
    charge(usage)
    try:
        request.wfile.write(held)
        request.wfile.flush()
    except OSError as exc:
        return usage, body_for_log(bytes(events)), f"the stream broke off: {exc}"
    return usage, body_for_log(bytes(events)), None


def _pass_whole(
    request: Request,
    status: int,
    kept: Mapping[str, str],
    answer: IO[bytes],
    charge: Callable[[Usage], None],
    rewrite: Rewrite | None,
) -> tuple[Usage, Any, str | None]:
    """An answer that is not a stream: read it whole, charge it, then send it on."""
    try:
        body = answer.read()
    except OSError as exc:
        message = f"the upstream answer broke off: {exc}"
        charge(Usage())
        send(request, 502, {"Content-Type": "text/plain"}, message.encode())
        return Usage(), None, message
    usage = usage_of(json_or_none(body))
    if rewrite is not None:
        status, body = rewrite(body)
    charge(usage)
    try:
        send(request, status, kept, body)
    except OSError as exc:
        return usage, body_for_log(body), f"the agent went away: {exc}"
    return usage, body_for_log(body), None


def send(request: Request, status: int, headers: Mapping[str, str], body: bytes) -> None:
    """Answer with ``status``, ``headers`` (their own length replaced) and ``body``."""
    request.send_response(status)
    for name, value in headers.items():
        if name.lower() != "content-length":
            request.send_header(name, value)
    request.send_header("Content-Length", str(len(body)))
    request.end_headers()
    request.wfile.write(body)
