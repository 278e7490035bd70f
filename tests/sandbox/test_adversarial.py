"""Adversarial agents: none may succeed or take the run down; each gets a clear outcome.

The agents live in ``adversaries/``. Each test records the outcome it saw as a test property
(``outcome``), so a report shows what every adversary was stopped by.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import pytest

from pytest_mlebench.sandbox.interface import ExecResult, ResourceGrant, Sandbox
from pytest_mlebench.sandbox.process import MAX_LOG_BYTES
from tests.sandbox.conftest import ANSWER_TOKEN, SandboxFactory, require_isolation

ADVERSARIES = Path(__file__).with_name("adversaries")
Recorder = Callable[[str, object], None]


def outcome(result: ExecResult) -> str:
    """One word for how a run ended, as the run record would say it."""
    if result.timed_out:
        return "timeout"
    if result.oom_killed:
        return "oom-killed"
    return f"exit {result.exit_code}"


def run_adversary(
    sandbox: Sandbox, name: str, *args: str, timeout: float, log_path: Path | None = None
) -> ExecResult:
    target = f"{sandbox.paths.code}/{name}"
    sandbox.copy_in(ADVERSARIES / name, target)
    return sandbox.exec([sandbox.python, target, *args], timeout=timeout, log_path=log_path)


def still_usable(sandbox: Sandbox) -> bool:
    return sandbox.exec([sandbox.python, "-c", "print('alive')"], timeout=30).exit_code == 0


def test_answer_hunter_finds_nothing(
    sandbox_factory: SandboxFactory,
    competition_dirs: tuple[Path, Path],
    record_property: Recorder,
) -> None:
    sandbox = sandbox_factory()
    private = competition_dirs[1] / "answers.csv"
    # On the host an agent could walk the whole disk; there we search the places near the run.
    roots = [] if sandbox.isolated else [sandbox.paths.home, str(competition_dirs[1].parent)]
    result = run_adversary(sandbox, "hunt_answers.py", str(private), *roots, timeout=300)
    record_property("outcome", outcome(result))
    assert outcome(result) == "exit 0", result.output_tail
    assert "hunt finished" in result.output_tail
    assert "FOUND" not in result.output_tail, result.output_tail
    assert ANSWER_TOKEN not in result.output_tail


def test_network_escape_fails(
    backend: str, sandbox_factory: SandboxFactory, record_property: Recorder
) -> None:
    require_isolation(backend, "network")
    result = run_adversary(sandbox_factory(), "try_network.py", timeout=120)
    record_property("outcome", outcome(result))
    assert outcome(result) == "exit 0", result.output_tail
    assert "network attempts" in result.output_tail
    assert "REACHED" not in result.output_tail, result.output_tail


def test_fork_bomb_is_contained(
    backend: str, sandbox_factory: SandboxFactory, record_property: Recorder, tmp_path: Path
) -> None:
    require_isolation(backend, "process-count")
    sandbox = sandbox_factory(resources=ResourceGrant(memory="1g", pids=64))
    started = time.monotonic()
    result = run_adversary(sandbox, "fork_bomb.py", timeout=5)
    record_property("outcome", outcome(result))
    assert outcome(result) == "timeout"
    assert time.monotonic() - started < 60
    assert still_usable(sandbox)
    (tmp_path / "note").write_text("copied back")
    sandbox.copy_in(tmp_path / "note", f"{sandbox.paths.submission}/note")
    assert sandbox.copy_out(f"{sandbox.paths.submission}/note", tmp_path / "back")


def test_sleeper_is_killed_at_the_deadline(
    sandbox_factory: SandboxFactory, record_property: Recorder
) -> None:
    sandbox = sandbox_factory()
    started = time.monotonic()
    result = run_adversary(sandbox, "sleep_forever.py", timeout=2)
    record_property("outcome", outcome(result))
    assert outcome(result) == "timeout"
    assert 2 <= result.wall_seconds < 15
    assert time.monotonic() - started < 30
    assert "sleeping forever" in result.output_tail
    assert still_usable(sandbox)


@pytest.mark.timeout(600)
def test_gigabyte_log_is_capped(
    sandbox_factory: SandboxFactory, record_property: Recorder, tmp_path: Path
) -> None:
    sandbox = sandbox_factory()
    log_path = tmp_path / "agent.log"
    result = run_adversary(sandbox, "huge_log.py", timeout=300, log_path=log_path)
    record_property("outcome", outcome(result))
    assert outcome(result) == "exit 0", result.output_tail[-500:]
    assert "wrote 1 GB" in result.output_tail
    assert log_path.stat().st_size <= MAX_LOG_BYTES + 1024
    assert "dropped" in log_path.read_text(errors="replace")[-200:]
    assert len(result.output_tail) < 64 * 1024
