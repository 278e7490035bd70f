"""Host side of ``build_image.sh``: a unix-socket server that builds images, never scores.

Like the validator (:mod:`.validator`), it listens on a socket in the folder mounted into the
sandbox. The client (:mod:`.build_client`, standard library only) sends a tar of a folder (the
workspace by default); the server unpacks it into a private temp folder (no absolute paths, no
``..``, no links or devices pointing out of it), hands it to the harness's builder
(:mod:`~pytest_mlebench.sandbox.docker.image_builder`, behind the :data:`ContextBuild` callable)
and answers with the build's log, whether it built, its wall time, image id and size: the facts a
``docker build`` prints, never a verdict or a score. Calls are rate-limited (``min_interval``
seconds apart); every answered call is logged with its time, the context's fingerprint (SHA-256 of
the tar as sent), whether it built and its wall time, so the run record shows how the agent used
it; refused requests are counted.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import socket
import tarfile
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from pytest_mlebench.timestamps import utc_timestamp

log = logging.getLogger(__name__)

CLIENT_SCRIPT = Path(__file__).with_name("build_client.py")
SOCKET_NAME = "build.sock"
SCRIPT_NAME = "build_image.sh"
CLIENT_NAME = "build_client.py"
MAX_UPLOAD_BYTES = 256 * 1024**2
CHUNK = 1 << 16


@dataclass(frozen=True)
class BuildReply:
    """What the agent learns of one build: what ``docker build`` would have printed."""

    ok: bool
    log: str
    wall_s: float
    image_id: str | None = None
    size: int | None = None


ContextBuild = Callable[[Path, str], BuildReply]
"""Builds the context folder with the named Dockerfile (the harness's builder)."""


@dataclass(frozen=True)
class BuildCall:
    """One answered build request, as the run record keeps it."""

    time: str
    sha256: str
    bytes: int
    dockerfile: str
    ok: bool
    wall_s: float


class BuildServer:
    """Serve builds over ``socket_path`` in a background thread until :meth:`stop`."""

    def __init__(
        self,
        socket_path: Path,
        build: ContextBuild,
        min_interval: float = 5.0,
        max_upload: int = MAX_UPLOAD_BYTES,
    ) -> None:
        self.socket_path = socket_path
        self.build = build
        self.min_interval = min_interval
        self.max_upload = max_upload
        self.calls: list[BuildCall] = []
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
        listener.listen(2)
        listener.settimeout(0.2)
        self._listener = listener
        self._thread = threading.Thread(
            target=self._serve, args=(listener,), name="mlebench-builder", daemon=True
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
                conn.settimeout(600)
                try:
                    reply = self._handle(conn)
                except (OSError, ValueError, KeyError, tarfile.TarError) as exc:
                    reply = {"error": f"bad request ({exc})"}
                try:
                    conn.sendall(json.dumps(reply).encode() + b"\n")
                except OSError:
                    log.debug("build client went away before the reply")

    def _handle(self, conn: socket.socket) -> dict[str, Any]:
        reader = conn.makefile("rb")
        header = json.loads(reader.readline(CHUNK).decode() or "{}")
        size = int(header["size"])
        dockerfile = str(header.get("dockerfile") or "Dockerfile")
        wait = self._last_call + self.min_interval - time.monotonic()
        if wait > 0:
            self.refused += 1
            return {"error": f"rate limited: try again in {wait:.1f} s"}
        if size > self.max_upload:
            return {"error": f"context of {size} bytes is over the {self.max_upload} byte limit"}
        self._last_call = time.monotonic()
        conn.sendall(b'{"ready": true}\n')
        with tempfile.TemporaryDirectory(prefix="mlebench-build-") as tmp:
            archive = Path(tmp) / "context.tar"
            digest = _receive(reader, archive, size)
            context = Path(tmp) / "context"
            unpack_context(archive, context)
            reply = self.build(context, dockerfile)
            self._last_call = time.monotonic()  # the interval counts from the build's end
        self.calls.append(
            BuildCall(utc_timestamp(), digest, size, dockerfile, reply.ok, round(reply.wall_s, 3))
        )
        return {
            "ok": reply.ok,
            "log": reply.log,
            "wall_s": round(reply.wall_s, 3),
            "image_id": reply.image_id,
            "size": reply.size,
        }


def _receive(reader: BinaryIO, destination: Path, size: int) -> str:
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


def unpack_context(archive: Path, target: Path) -> None:
    """Unpack the agent's tar into ``target``: regular files, folders and links that stay
    inside it, nothing else (``tarfile``'s ``data`` filter: no absolute paths, no ``..``, no
    devices, no modes beyond the user's)."""
    target.mkdir()
    with tarfile.open(archive) as tar:
        tar.extractall(target, filter="data")


def build_script(client_path: str, python: str = "python3") -> str:
    """Text of ``build_image.sh`` running the client at ``client_path``."""
    return f'#!/bin/sh\nexec {python} {client_path} "$@"\n'
