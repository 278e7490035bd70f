"""The agent's log is live on both backends: what the agent prints is in the host's log file while
it still runs (``tail -f runs/<run>/agent.log``), not only once its command has ended."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from pytest_mlebench.sandbox.conformance.support import run_python
from tests.sandbox.conftest import SandboxFactory

CODE = "import time; print('first line', flush=True); time.sleep(6); print('last line')"


def test_the_log_has_each_line_while_the_command_runs(
    sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = sandbox_factory()
    log_path = tmp_path / "agent.log"
    running = threading.Thread(
        target=run_python, args=(sandbox, CODE), kwargs={"log_path": log_path}
    )
    running.start()
    seen_while_running = False
    while running.is_alive():
        if "first line" in (log_path.read_text() if log_path.is_file() else ""):
            seen_while_running = running.is_alive()
            break
        time.sleep(0.1)
    running.join()
    assert seen_while_running, "the first line reached the log only after the command ended"
    assert log_path.read_text().splitlines() == ["first line", "last line"]
