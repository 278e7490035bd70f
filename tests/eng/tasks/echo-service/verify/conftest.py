"""The echo service, started from the agent's own entry point on a fresh port."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time

import pytest


@pytest.fixture
def service(work_dir, free_port):
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "serve.py", "--port", str(port)],
        cwd=work_dir,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=dict(os.environ),
    )
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    proc.kill()
    proc.wait()
