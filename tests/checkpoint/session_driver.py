"""A benchmark session with the ``resumer`` test agent, killed mid-run and resumed.

Shared by the local and Docker resume tests: :func:`start_session` starts the real plugin in a
pytest subprocess (its own process group, as a terminal starts it) that snapshots every second;
:func:`wait_for_snapshot` waits until the run has taken ``count`` of them; :func:`resume_session`
runs ``--mle-resume`` on what the dead session left.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path
from typing import Any

from tests.factories import bench_command, write_competition

AGENT = Path(__file__).with_name("resumer")
TIME_LIMIT = 120


def session_command(root: Path, backend: str, *args: str, every: str = "1s") -> list[str]:
    return bench_command(
        root,
        "--mle-sandbox",
        backend,
        "--mle-data-dir",
        str(root / "data"),
        "--mle-results",
        str(root / "reports" / "results.jsonl"),
        "--mle-competitions-dir",
        str(root / "defs"),
        f"--mle-agent={AGENT}",
        "--mle-time-limit",
        str(TIME_LIMIT),
        "--mle-checkpoint-every",
        every,
        "-m",
        "resumable",
        *args,
    )


def start_session(root: Path, backend: str, every: str = "1s") -> subprocess.Popen[bytes]:
    write_competition(root / "defs", "toy-resume", splits={"resumable": ["toy-resume"]})
    return subprocess.Popen(
        session_command(root, backend, every=every),
        cwd=root,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def run_folder(root: Path) -> Path:
    folders = sorted((root / "reports" / "runs").glob("toy-resume-*"))
    assert len(folders) == 1, folders
    return folders[0]


def wait_for_snapshot(root: Path, session: subprocess.Popen[bytes], count: int) -> None:
    """Wait for the run's snapshot ``count`` (``0``: for its agent to have started)."""
    give_up = time.monotonic() + 240
    runs = root / "reports" / "runs"
    pattern = f"*/checkpoints/{count:04d}/snapshot.json" if count else "*/agent.log"
    while not list(runs.glob(pattern)):
        if session.poll() is not None or time.monotonic() > give_up:
            output = session.stdout.read().decode(errors="replace") if session.stdout else ""
            raise AssertionError(f"no snapshot {count} was taken:\n{output[-3000:]}")
        time.sleep(0.2)


def stop_session(session: subprocess.Popen[bytes], signum: int) -> str:
    """Signal the session's process group, as ``kill -9`` or Ctrl-C in its terminal would."""
    os.killpg(session.pid, signum)
    output, _ = session.communicate(timeout=120)
    return output.decode(errors="replace")


def resume_session(root: Path, backend: str) -> tuple[subprocess.CompletedProcess[str], Any]:
    """``--mle-resume reports/``; the completed process and the one record it wrote."""
    done = subprocess.run(
        session_command(root, backend, f"--mle-resume={root / 'reports'}"),
        cwd=root,
        capture_output=True,
        text=True,
        timeout=600,
    )
    lines = (root / "reports" / "results.jsonl").read_text().splitlines()
    return done, [json.loads(line) for line in lines]
