"""Host side of ``validate_submission.sh``: a unix-socket server that checks, never scores.

The answers stay on the host. The agent's client streams its file over a socket mounted into the
sandbox; the server saves it to a private temp file, runs the same validation code path as grading
(:func:`graders.validate_submission`), and answers ``{"valid": bool, "reason": str | null}``.
Calls are rate-limited (``min_interval`` seconds apart) and every answered call is logged with a
timestamp and a fingerprint of the file sent (never the file), so the run record shows how the
agent used it; refused requests are counted.
"""

from __future__ import annotations

import json
import logging
import os
import socket
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from pytest_mlebench.graders import ScoreResult
from pytest_mlebench.sandbox.fingerprint import fingerprint_file
from pytest_mlebench.timestamps import utc_timestamp

log = logging.getLogger(__name__)

CLIENT_SCRIPT = Path(__file__).with_name("validate_client.py")
MAX_UPLOAD_BYTES = 2 * 1024**3
CHUNK = 1 << 16

SubmissionValidator = Callable[[Path], ScoreResult]


@dataclass(frozen=True)
class ValidationCall:
    """One call of the in-sandbox validator, as logged in the run record.

    ``sha256``, ``rows`` and ``sketch`` fingerprint the file sent (:mod:`.fingerprint`), so
    probing shows in the record.
    """

    time: str
    valid: bool
    reason: str | None
    sha256: str | None = None
    rows: int | None = None
    sketch: str | None = None


class ValidatorServer:
    """Serve validation over ``socket_path`` in a background thread until :meth:`stop`."""

    def __init__(
        self, socket_path: Path, validate: SubmissionValidator, min_interval: float = 1.0
    ) -> None:
        self.socket_path = socket_path
        self.validate = validate
        self.min_interval = min_interval
        self.calls: list[ValidationCall] = []
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
        listener.listen(4)
        listener.settimeout(0.2)
        self._listener = listener
        self._thread = threading.Thread(
            target=self._serve, args=(listener,), name="mlebench-validator", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        self._stopping.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        if self._listener is not None:
            self._listener.close()
        self.socket_path.unlink(missing_ok=True)

    def _serve(self, listener: socket.socket) -> None:
        while not self._stopping.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return
            with conn:
                conn.settimeout(60)
                try:
                    reply = self._handle(conn)
                except (OSError, ValueError, KeyError) as exc:
                    reply = {"error": f"bad request ({exc})"}
                try:
                    conn.sendall(json.dumps(reply).encode() + b"\n")
                except OSError:
                    log.debug("validator client went away before the reply")

    def _handle(self, conn: socket.socket) -> dict[str, object]:
        reader = conn.makefile("rb")
        header = json.loads(reader.readline(CHUNK).decode() or "{}")
        size = int(header["size"])
        wait = self._last_call + self.min_interval - time.monotonic()
        if wait > 0:
            self.refused += 1
            return {"error": f"rate limited: try again in {wait:.1f} s"}
        if size > MAX_UPLOAD_BYTES:
            return {"error": f"file of {size} bytes is over the {MAX_UPLOAD_BYTES} byte limit"}
        self._last_call = time.monotonic()
        conn.sendall(b'{"ready": true}\n')
        with tempfile.TemporaryDirectory(prefix="mlebench-validate-") as tmp:
            upload = Path(tmp) / "submission.csv"
            _receive(reader, upload, size)
            result = self.validate(upload)
            sent = fingerprint_file(upload)
        stamp = utc_timestamp()
        self.calls.append(
            ValidationCall(
                time=stamp,
                valid=result.valid,
                reason=result.reason,
                sha256=sent.sha256,
                rows=sent.rows,
                sketch=sent.sketch,
            )
        )
        return {"valid": result.valid, "reason": result.reason}


def _receive(reader: BinaryIO, destination: Path, size: int) -> None:
    """Copy ``size`` bytes of the request body into ``destination``."""
    remaining = size
    with destination.open("wb") as handle:
        while remaining > 0:
            data = reader.read(min(CHUNK, remaining))
            if not data:
                raise ValueError(f"connection closed {remaining} bytes before the end of the file")
            handle.write(data)
            remaining -= len(data)


def validate_script(client_path: str, python: str = "python3") -> str:
    """Text of ``validate_submission.sh`` running the client at ``client_path``."""
    return f'#!/bin/sh\nexec {python} {client_path} "$@"\n'
