#!/usr/bin/env python3
"""In-sandbox forwarder of the LLM gateway: ``localhost`` TCP in, the gateway's unix socket out.

Runs *inside* the sandbox with the standard library only (the image has Debian's python3), so it
imports nothing from pytest_mlebench. It wraps the agent's command::

    python3 forwarder.py --socket /run/mlebench/gateway.sock [--port 8765] -- bash start.sh

It listens on ``127.0.0.1`` (port 0 picks a free one), runs the command with
``OPENAI_BASE_URL`` / ``ANTHROPIC_BASE_URL`` pointing at that port, copies the bytes of each TCP
connection to and from the socket, and exits with the command's status. The sandbox needs no
network interface but loopback: the socket is a file the harness mounts in.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from collections.abc import Sequence

CHUNK = 1 << 16
UNREACHABLE = (
    b"HTTP/1.0 502 Bad Gateway\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n"
    b'{"error": {"message": "mlebench gateway: the harness-side gateway cannot be reached", '
    b'"type": "gateway_unreachable", "code": "gateway_unreachable", "param": null}}'
)


def parse(argv: Sequence[str]) -> tuple[str, int, list[str]]:
    """``--socket PATH [--port N] -- COMMAND...`` → (socket path, port, command)."""
    if "--" not in argv:
        raise SystemExit("usage: forwarder.py --socket PATH [--port N] -- COMMAND...")
    split = list(argv).index("--")
    options, command = list(argv[:split]), list(argv[split + 1 :])
    values = dict(zip(options[::2], options[1::2], strict=False))
    if "--socket" not in values or not command:
        raise SystemExit("usage: forwarder.py --socket PATH [--port N] -- COMMAND...")
    return values["--socket"], int(values.get("--port", "0")), command


def gateway_env(port: int) -> dict[str, str]:
    """The variables that point SDKs at the forwarder."""
    root = f"http://127.0.0.1:{port}"
    return {
        "MLEBENCH_GATEWAY_URL": root,
        "OPENAI_BASE_URL": f"{root}/v1",
        "OPENAI_API_BASE": f"{root}/v1",
        "ANTHROPIC_BASE_URL": root,
    }


def pump(source: socket.socket, target: socket.socket) -> None:
    """Copy ``source`` to ``target`` until ``source`` ends, then half-close ``target``."""
    try:
        while data := source.recv(CHUNK):
            target.sendall(data)
    except OSError:
        pass
    finally:
        try:
            target.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def serve_connection(client: socket.socket, socket_path: str) -> None:
    upstream = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        upstream.connect(socket_path)
    except OSError:
        try:
            client.sendall(UNREACHABLE)
        finally:
            client.close()
            upstream.close()
        return
    back = threading.Thread(target=pump, args=(upstream, client), daemon=True)
    back.start()
    pump(client, upstream)
    back.join()
    client.close()
    upstream.close()


def accept_forever(listener: socket.socket, socket_path: str) -> None:
    while True:
        try:
            client, _ = listener.accept()
        except OSError:
            return
        threading.Thread(target=serve_connection, args=(client, socket_path), daemon=True).start()


def main(argv: Sequence[str]) -> int:
    socket_path, port, command = parse(argv)
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind(("127.0.0.1", port))
    listener.listen(64)
    bound = int(listener.getsockname()[1])
    threading.Thread(target=accept_forever, args=(listener, socket_path), daemon=True).start()
    try:
        child = subprocess.Popen(command, env={**os.environ, **gateway_env(bound)})
    except OSError as exc:
        print(f"mlebench gateway forwarder: cannot start {command[0]}: {exc}", file=sys.stderr)
        return 127
    for signum in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, lambda number, frame: child.send_signal(number))
    code = child.wait()
    return 128 - code if code < 0 else code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
