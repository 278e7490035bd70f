#!/usr/bin/env python3
"""Client of the harness's submission validator; runs inside the sandbox with the stdlib only.

Usage: ``validate_submission.sh FILE``. The file is streamed over the unix socket named by
``MLEBENCH_VALIDATOR_SOCKET`` to the harness, which checks it against the answers *outside* the
sandbox and answers valid/invalid with a reason, never a score. Exit status: 0 valid, 1 invalid,
2 the validator could not be reached or the file could not be read.
"""

import json
import os
import socket
import sys
from typing import Any

DEFAULT_SOCKET = "/home/.validator/validator.sock"
CHUNK = 1 << 16
# Seconds any one step (connect, a send, the answer) may wait: a server that stops answering
# ends the call with exit status 2 instead of hanging until the run's deadline.
TIMEOUT_S = float(os.environ.get("MLEBENCH_CLIENT_TIMEOUT", "600.0"))
MAX_REPLY = 1 << 20


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: validate_submission.sh FILE", file=sys.stderr)
        return 2
    path = argv[1]
    if not os.path.isfile(path):
        print(f"invalid: {path} is not a file")
        return 1
    sock_path = os.environ.get("MLEBENCH_VALIDATOR_SOCKET", DEFAULT_SOCKET)
    try:
        answer = _ask(sock_path, path)
    except TimeoutError:
        print(
            f"error: the validator at {sock_path} did not answer within {TIMEOUT_S:g} s",
            file=sys.stderr,
        )
        return 2
    except OSError as exc:
        print(f"error: the validator at {sock_path} could not be reached ({exc})", file=sys.stderr)
        return 2
    if answer.get("error"):
        print(f"error: {answer['error']}")
        return 2
    if answer.get("valid"):
        print("valid: the submission has the expected format")
        return 0
    print(f"invalid: {answer.get('reason')}")
    return 1


def _ask(sock_path: str, path: str) -> dict[str, Any]:
    """Send the header, wait for the go-ahead (or a refusal), stream the file, read the answer."""
    size = os.path.getsize(path)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.settimeout(TIMEOUT_S)
        conn.connect(sock_path)
        conn.sendall((json.dumps({"name": os.path.basename(path), "size": size}) + "\n").encode())
        reader = conn.makefile("rb")
        go: dict[str, Any] = _json(reader.readline(MAX_REPLY))
        if not go.get("ready"):
            return go
        with open(path, "rb") as handle:
            while chunk := handle.read(CHUNK):
                conn.sendall(chunk)
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
