"""A run the harness broke mid-way is tried again from its own last snapshot (``--mle-retries``).

The real plugin in a pytest subprocess, local backend, with the ``resumer`` test agent and a
named fake sandbox from the ``pytest_mlebench_make_sandbox`` hook: on the run's first attempt
the engine "goes away" as the harness kills the agent's processes at the end (a
``SandboxError``, after the agent ran and was snapshotted every second). The retry restores the
last snapshot, gives the agent the time it had left and tells it that it resumes; the one record
kept says both the failed attempt and where the run resumed from.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.checkpoint.session_driver import run_folder, session_command
from tests.factories import write_competition

BROKEN_ENGINE_CONFTEST = '''
from pathlib import Path
from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.local import LocalSandbox

ENDS = Path("attempt-ends.txt")


class EngineLostOnce(LocalSandbox):
    """A named fake sandbox: its engine is lost at the end of the run's first attempt."""

    backend = "engine-lost-once"

    def kill_agent_processes(self):
        super().kill_agent_processes()
        with ENDS.open("a") as handle:
            handle.write("end\\n")
        if len(ENDS.read_text().splitlines()) == 1:
            raise SandboxError("the engine went away while the agent's processes were killed")


def pytest_mlebench_make_sandbox(spec, backend, settings):
    return EngineLostOnce(spec)
'''
TIME_LIMIT = 6


def test_an_infra_retry_resumes_from_the_run_s_last_snapshot(tmp_path: Path) -> None:
    write_competition(tmp_path / "defs", "toy-resume", splits={"resumable": ["toy-resume"]})
    (tmp_path / "conftest.py").write_text(BROKEN_ENGINE_CONFTEST)
    command = session_command(tmp_path, "local", "--mle-retries", "1")
    command[command.index("--mle-time-limit") + 1] = str(TIME_LIMIT)
    done = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=300)

    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    [record] = [json.loads(line) for line in (tmp_path / "reports" / "results.jsonl").open()]
    folder = run_folder(tmp_path)
    [attempt] = record["attempts"]
    assert attempt["failure_class"] == "infra" and "engine went away" in attempt["reason"]
    resumed = record["resumed"]
    assert resumed["run_id"] == folder.name and not resumed["from_scratch"]
    snapshot = Path(resumed["snapshot"])
    assert snapshot.parent.parent == folder
    # the last snapshot is taken as the agent's time runs out: the retry gets what was left
    assert 0 < resumed["time_used_at_snapshot"] <= TIME_LIMIT + 1
    assert record["time_limit"] == resumed["remaining_seconds"] < TIME_LIMIT
    told = dict(
        line.split("=", 1) for line in (folder / "logs" / "resumed.txt").read_text().split()
    )
    steps_at_snapshot = len((snapshot / "code" / "steps.txt").read_text().splitlines())
    assert told["resumed"] == "1" and told["told"] == "yes"
    assert int(told["steps"]) == steps_at_snapshot > 0
    assert record["failure_class"] == "valid_no_medal" or record["failure_class"] == "medal"
