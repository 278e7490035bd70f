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
        conn.connect(sock_path)
        conn.sendall((json.dumps({"name": os.path.basename(path), "size": size}) + "\n").encode())
        reader = conn.makefile("rb")
        go: dict[str, Any] = json.loads(reader.readline().decode() or "{}")
        if not go.get("ready"):
            return go
        with open(path, "rb") as handle:
            while chunk := handle.read(CHUNK):
                conn.sendall(chunk)
        conn.shutdown(socket.SHUT_WR)
        answer: dict[str, Any] = json.loads(reader.read().decode() or "{}")
    return answer


if __name__ == "__main__":
    sys.exit(main(sys.argv))
