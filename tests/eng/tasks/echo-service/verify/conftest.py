"""The echo service, started from the agent's own entry point on a fresh port, through the
verifier's door (as the agent's user where the verifier is root)."""

from __future__ import annotations

import os
import socket
import tempfile
import time
from pathlib import Path

import pytest
from mlebench_agent_run import python_script, start_agent


@pytest.fixture
def service(work_dir, free_port):
    port = free_port()
    log = Path(tempfile.mkdtemp(prefix="echo-")) / "serve.log"
    contract = {name: os.environ[name] for name in ("ECHO_PREFIX", "APP_LOG") if name in os.environ}
    proc = start_agent(
        python_script("serve.py", "--port", str(port)),
        log=log, cwd=work_dir, writable=(work_dir,), env=contract,
    )  # fmt: skip
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            break
        except OSError:
            time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    proc.stop()
