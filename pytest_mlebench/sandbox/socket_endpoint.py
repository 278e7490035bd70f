"""The shape every in-sandbox endpoint of the harness shares: a rate-limited unix-socket server.

The validator (:mod:`.validator`) and the image builder's endpoint (:mod:`.build_endpoint`) both
listen on a socket in a folder mounted into the sandbox, take one request per connection (a JSON
header line with the body's ``size``, then, after ``{"ready": true}``, the body), answer with one
JSON line, refuse a request that comes sooner than ``min_interval`` seconds after the last one
(counted in :attr:`SocketEndpoint.refused`), and run in a background thread until
:meth:`SocketEndpoint.stop`. What differs — what a request means and what is logged of it — is
each subclass's :meth:`SocketEndpoint.handle`.

The requests come from the agent, so they are hostile input: the header is read up to
:data:`CHUNK` bytes, must be a JSON object whose ``size`` is a non-negative integer
(:func:`request_size`), and whatever a request does — a malformed header, a body that stops
short, a handler that breaks — it gets an ``{"error": ...}`` answer and the server goes on
serving the next one: nothing a request sends can end the serving thread.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import socket
import threading
import time
from pathlib import Path
from typing import Any, BinaryIO

log = logging.getLogger(__name__)

CHUNK = 1 << 16


class SocketEndpoint:
    """Serve :meth:`handle` over ``socket_path`` in a background thread until :meth:`stop`."""

    thread_name = "mlebench-endpoint"
    backlog = 4
    request_timeout_s = 60.0
    bad_request: tuple[type[BaseException], ...] = (OSError, ValueError, KeyError)

    def __init__(self, socket_path: Path, min_interval: float) -> None:
        self.socket_path = socket_path
        self.min_interval = min_interval
        self.refused = 0
        self._last_call = float("-inf")
        self._listener: socket.socket | None = None
        self._thread: threading.Thread | None = None
        self._stopping = threading.Event()

    def start(self) -> None:
        self.socket_path.parent.mkdir(parents=True, exist_ok=True)
        self.socket_path.unlink(missing_ok=True)
        listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        listener.bind(str(self.socket_path))
        os.chmod(self.socket_path, 0o666)  # the agent runs as another, unprivileged user
        listener.listen(self.backlog)
        listener.settimeout(0.2)
        self._listener = listener
        self._thread = threading.Thread(
            target=self._serve, args=(listener,), name=self.thread_name, daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._listener is not None:
            self._listener.close()
        self.socket_path.unlink(missing_ok=True)

    def _wake(self) -> None:
        """Connect once, so the serving thread's ``accept`` returns now and sees the stop (not
        at its next timeout); when that fails, the timeout still ends it."""
        if self._thread is None or not self._thread.is_alive():
            return
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as knock:
            knock.settimeout(0.2)
            try:
                knock.connect(str(self.socket_path))
            except OSError:
                pass

    def handle(self, header: dict[str, Any], reader: BinaryIO, conn: socket.socket) -> Any:
        """The answer to one request whose header is ``header``; the body follows in ``reader``
        once :meth:`accept_body` said ready."""
        raise NotImplementedError

    def refusal(self, size: int, limit: int, what: str) -> dict[str, str] | None:
        """The answer that refuses a request (too soon, or a body over ``limit`` bytes), or
        ``None``: the request goes on and counts as the last call."""
        wait = self._last_call + self.min_interval - time.monotonic()
        if wait > 0:
            self.refused += 1
            return {"error": f"rate limited: try again in {wait:.1f} s"}
        if size > limit:
            return {"error": f"{what} of {size} bytes is over the {limit} byte limit"}
        self.mark_call()
        return None

    def mark_call(self) -> None:
        """Start the interval to the next call now."""
        self._last_call = time.monotonic()

    def _serve(self, listener: socket.socket) -> None:
        while not self._stopping.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            if self._stopping.is_set():  # the stop's own knock, or a request it came too late for
                conn.close()
                return
            try:
                self._answer(conn)
            except Exception:  # the thread outlives any request, whatever it did
                log.exception("%s: a request broke its connection", self.thread_name)

    def _answer(self, conn: socket.socket) -> None:
        conn.settimeout(self.request_timeout_s)
        # the socket closes (the client sees the end) only once its file is closed too
        with conn, conn.makefile("rb") as reader:
            reply = self._reply(reader, conn)
            try:
                conn.sendall(json.dumps(reply).encode() + b"\n")
            except OSError:
                log.debug("%s: the client went away before the reply", self.thread_name)

    def _reply(self, reader: BinaryIO, conn: socket.socket) -> Any:
        try:
            header = json.loads(reader.readline(CHUNK).decode() or "{}")
            if not isinstance(header, dict):
                raise BadRequest("the header must be a JSON object")
            return self.handle(header, reader, conn)
        except self.bad_request as exc:
            return {"error": f"bad request ({exc})"}
        except Exception as exc:  # a handler that broke: an answer, not a dead server
            log.warning("%s: request failed: %s: %s", self.thread_name, type(exc).__name__, exc)
            return {"error": f"the request failed ({type(exc).__name__})"}


class BadRequest(ValueError):
    """A request whose header is not what the endpoint takes."""


def request_size(header: dict[str, Any]) -> int:
    """The body's ``size`` from a request header: a non-negative integer, nothing else.

    Raises:
        BadRequest: ``size`` is missing, not an integer (a bool, float, string, list, null) or
            negative.
    """
    size = header.get("size")
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise BadRequest(f"size must be a non-negative integer, not {json.dumps(size)[:40]}")
    return size


def header_text(header: dict[str, Any], key: str, default: str, limit: int = 4096) -> str:
    """A string field of a request header (``default`` when absent).

    Raises:
        BadRequest: The field is not a string, or is longer than ``limit`` characters.
    """
    value = header.get(key, default)
    if value is None:
        return default
    if not isinstance(value, str) or len(value) > limit:
        raise BadRequest(f"{key} must be a string of at most {limit} characters")
    return value or default


def accept_body(conn: socket.socket) -> None:
    """Tell the client to send its body."""
    conn.sendall(b'{"ready": true}\n')


def receive_body(reader: BinaryIO, destination: Path, size: int) -> str:
    """Copy ``size`` bytes of the request body into ``destination``; their SHA-256."""
    digest = hashlib.sha256()
    remaining = size
    with destination.open("wb") as handle:
        while remaining > 0:
            data = reader.read(min(CHUNK, remaining))
            if not data:
                raise ValueError(f"connection closed {remaining} bytes before the end")
            digest.update(data)
            handle.write(data)
            remaining -= len(data)
    return digest.hexdigest()


def client_script(client_path: str, python: str = "python3") -> str:
    """Text of the shell script (``validate_submission.sh``, ``build_image.sh``) that runs the
    endpoint's client at ``client_path``."""
    return f'#!/bin/sh\nexec {python} {client_path} "$@"\n'
