#!/usr/bin/env python3
"""Client of the harness's image builder; runs inside the sandbox with the stdlib only.

Usage: ``build_image.sh [FOLDER] [-f DOCKERFILE]`` (FOLDER: default ``$WORK_DIR``, else the
current folder). The folder is sent as a tar over the unix socket named by
``MLEBENCH_BUILD_SOCKET`` to the harness, which builds it on the host's engine with no network
and only the allowed base images, and answers with the build log. Exit status: 0 the image
built, 1 the build failed or was refused, 2 the builder could not be reached (or refused the
request: rate limit, size).
"""

import io
import json
import os
import socket
import sys
import tarfile
from typing import Any

DEFAULT_SOCKET = "/run/mlebench/build.sock"
CHUNK = 1 << 16
# Seconds any one step (connect, a send, the answer) may wait: a server that stops answering
# ends the call with exit status 2 instead of hanging until the run's deadline.
TIMEOUT_S = float(os.environ.get("MLEBENCH_CLIENT_TIMEOUT", "1800.0"))
MAX_REPLY = 64 << 20


def main(argv: list[str]) -> int:
    args = argv[1:]
    dockerfile = "Dockerfile"
    if "-f" in args:
        where = args.index("-f")
        if where + 1 >= len(args):
            print("usage: build_image.sh [FOLDER] [-f DOCKERFILE]", file=sys.stderr)
            return 2
        dockerfile = args[where + 1]
        del args[where : where + 2]
    folder = args[0] if args else os.environ.get("WORK_DIR", ".")
    if not os.path.isdir(folder):
        print(f"error: {folder} is not a folder", file=sys.stderr)
        return 2
    sock_path = os.environ.get("MLEBENCH_BUILD_SOCKET", DEFAULT_SOCKET)
    try:
        answer = _ask(sock_path, _tar(folder), dockerfile)
    except TimeoutError:
        print(
            f"error: the builder at {sock_path} did not answer within {TIMEOUT_S:g} s",
            file=sys.stderr,
        )
        return 2
    except OSError as exc:
        print(f"error: the builder at {sock_path} could not be reached ({exc})", file=sys.stderr)
        return 2
    if answer.get("error"):
        print(f"error: {answer['error']}", file=sys.stderr)
        return 2
    sys.stdout.write(str(answer.get("log") or ""))
    if answer.get("ok"):
        print(
            f"built {answer.get('image_id')} ({answer.get('size')} bytes, {answer.get('wall_s')} s)"
        )
        return 0
    print(f"build failed ({answer.get('wall_s')} s)")
    return 1


def _tar(folder: str) -> bytes:
    """The folder as an uncompressed tar, links kept as links (never followed)."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as tar:
        for name in sorted(os.listdir(folder)):
            tar.add(os.path.join(folder, name), arcname=name)
    return buffer.getvalue()


def _ask(sock_path: str, data: bytes, dockerfile: str) -> dict[str, Any]:
    """Send the header, wait for the go-ahead (or a refusal), send the tar, read the answer."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(TIMEOUT_S)
        conn.connect(sock_path)
        header = {"size": len(data), "dockerfile": dockerfile}
        conn.sendall((json.dumps(header) + "\n").encode())
        reader = conn.makefile("rb")
        go: dict[str, Any] = _json(reader.readline(MAX_REPLY))
        if not go.get("ready"):
            return go
        for start in range(0, len(data), CHUNK):
            conn.sendall(data[start : start + CHUNK])
        conn.shutdown(socket.SHUT_WR)
        answer: dict[str, Any] = _json(reader.read(MAX_REPLY))
    return answer


def _json(line: bytes) -> dict[str, Any]:
    """One JSON object of the server's answer (an error answer for anything else)."""
    try:
        value = json.loads(line.decode("utf-8") or "{}")
    except ValueError:
        return {"error": "the server's answer was not JSON"}
    return value if isinstance(value, dict) else {"error": "the server's answer was not an object"}


if __name__ == "__main__":
    sys.exit(main(sys.argv))
