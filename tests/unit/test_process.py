"""Host process trees under a deadline (the local backend's engine)."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

from pytest_mlebench.sandbox.process import run_process_tree

ENV = {"PATH": os.environ["PATH"]}


def test_exit_code_output_and_accounting(tmp_path: Path) -> None:
    result = run_process_tree(
        [sys.executable, "-c", "print('hello'); raise SystemExit(3)"],
        cwd=tmp_path,
        env=ENV,
        timeout=30,
        log_path=tmp_path / "log.txt",
    )
    assert result.exit_code == 3
    assert not result.timed_out
    assert "hello" in result.output_tail
    assert (tmp_path / "log.txt").read_text().strip() == "hello"
    assert result.cpu_seconds is not None and result.peak_memory_bytes


def test_deadline_kills_the_whole_tree(tmp_path: Path) -> None:
    marker = tmp_path / "child.pid"
    script = (
        "import subprocess, sys, time\n"
        "child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'],"
        " start_new_session=True)\n"
        f"open({str(marker)!r}, 'w').write(str(child.pid))\n"
        "time.sleep(600)\n"
    )
    started = time.monotonic()
    result = run_process_tree(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        env=ENV,
        timeout=2,
        log_path=tmp_path / "log.txt",
    )
    assert result.timed_out
    assert time.monotonic() - started < 30
    child = int(marker.read_text())
    time.sleep(0.2)
    assert not Path(f"/proc/{child}").exists() or "Z" in Path(f"/proc/{child}/stat").read_text()


def test_log_is_capped(tmp_path: Path) -> None:
    result = run_process_tree(
        [sys.executable, "-c", "import sys; sys.stdout.write('x' * 3_000_000)"],
        cwd=tmp_path,
        env=ENV,
        timeout=30,
        log_path=tmp_path / "log.txt",
        max_log_bytes=1000,
    )
    assert result.exit_code == 0
    log = (tmp_path / "log.txt").read_text()
    assert log.startswith("x" * 1000)
    assert "2999000 more bytes of output dropped" in log
    assert len(log) < 2000


def test_missing_program(tmp_path: Path) -> None:
    result = run_process_tree(
        ["/no/such/program"], cwd=tmp_path, env=ENV, timeout=5, log_path=tmp_path / "l.txt"
    )
    assert result.exit_code == 127
    assert "cannot start" in result.output_tail
