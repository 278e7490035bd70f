"""Runs one Docker sandbox with a long command, for the interruption tests to signal.

Usage: python -m tests.sandbox.interrupt_driver PUBLIC_DIR RUN_ID SESSION. Prints ``READY`` once
the agent's command is running, then waits for it (an hour) until a signal arrives.
"""

from __future__ import annotations

import sys
import threading
import time
from pathlib import Path

from pytest_mlebench.sandbox.docker import DockerSandbox
from pytest_mlebench.sandbox.interface import Limits, SandboxSpec


def announce_when_running() -> None:
    time.sleep(1.0)
    print("READY", flush=True)


def main(public: str, run_id: str, session: str) -> None:
    spec = SandboxSpec(
        run_id=run_id,
        subject="interrupted",
        seed=0,
        public_dir=Path(public),
        limits=Limits(3600),
        labels={"pytest-mlebench.session": session},
    )
    with DockerSandbox(spec) as sandbox:
        threading.Thread(target=announce_when_running, daemon=True).start()
        sandbox.exec(["sleep", "3600"], timeout=3600)


if __name__ == "__main__":
    main(*sys.argv[1:4])
