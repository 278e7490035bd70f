"""A resumed mini-swe-agent run goes on from the trajectory its interrupted attempt saved.

Real mini-swe-agent (its locked packages, ``mini_swe_on_path``) with its own deterministic test
model: the earlier conversation opens the new one, a note of the time left follows, and the
earlier model calls count toward the step limit; without ``MLEBENCH_RESUMED=1``, or after an
attempt that had ended, the run starts afresh.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from pytest_mlebench.agents.mini_swe_folder import MINI_SWE_FOLDER

pytestmark = pytest.mark.usefixtures("mini_swe_on_path")

CHECK = """
import json, sys
from pathlib import Path

sys.path.insert(0, sys.argv[1])
from minisweagent.agents.default import DefaultAgent
from minisweagent.environments.local import LocalEnvironment
from minisweagent.models.test_models import DeterministicModel, make_output
import run_mini_swe

earlier = run_mini_swe.earlier_messages(Path(sys.argv[2]))
model = DeterministicModel(
    outputs=[make_output("done", [{"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"}])]
)
agent = run_mini_swe.resuming_agent(DefaultAgent, earlier)(
    model, LocalEnvironment(), system_template="system", instance_template="{{task}}",
    step_limit=5, cost_limit=0,
)
agent.run("the task")
print(json.dumps({"calls": agent.n_calls, "contents": [m.get("content") for m in agent.messages]}))
"""

EARLIER = [
    {"role": "system", "content": "system"},
    {"role": "user", "content": "the task"},
    {"role": "assistant", "content": "first step", "extra": {"actions": []}},
    {"role": "user", "content": "its output"},
]


def run_check(tmp_path: Path, resumed: str, messages: list[dict[str, object]]) -> dict[str, object]:
    trajectory = tmp_path / "trajectory.json"
    trajectory.write_text(json.dumps({"messages": messages}))
    done = subprocess.run(
        ["python3", "-c", CHECK, str(MINI_SWE_FOLDER), str(trajectory)],
        env={**os.environ, "MLEBENCH_RESUMED": resumed, "TIME_LIMIT_SECS": "77"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_resumed_run_continues_the_earlier_conversation(tmp_path: Path) -> None:
    result = run_check(tmp_path, "1", EARLIER)
    contents = result["contents"]
    assert isinstance(contents, list)
    assert contents[:4] == [m["content"] for m in EARLIER]
    assert "resumed this run" in contents[4] and "77 seconds left" in contents[4]
    assert contents[5] == "done" and result["calls"] == 2


@pytest.mark.parametrize(
    ("resumed", "messages"),
    [("0", EARLIER), ("1", [*EARLIER, {"role": "exit", "content": "Submitted"}])],
    ids=["not-resumed", "earlier-attempt-ended"],
)
def test_a_run_starts_afresh_otherwise(
    tmp_path: Path, resumed: str, messages: list[dict[str, object]]
) -> None:
    result = run_check(tmp_path, resumed, messages)
    contents = result["contents"]
    assert isinstance(contents, list)
    assert contents[:3] == ["system", "the task", "done"] and result["calls"] == 1
