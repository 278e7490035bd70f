"""The engineering result is one typed value; its JSON form is the record's ``engineering`` block
exactly as readers have always read it (the keys and their shapes are pinned here)."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_mlebench.eng.result import BuildsEntry, EngineeringResult
from pytest_mlebench.eng.scoring import CheckResult, score_run
from pytest_mlebench.eng.task import load_task
from tests.eng.task_folders import write_task

BLOCK_KEYS = {
    "task", "category", "score", "passed", "dimensions", "weights", "redistributed", "stages",
    "failed_gates", "withheld", "checks", "verifier", "builds",
}  # fmt: skip


def test_the_result_serialises_to_the_record_s_engineering_block(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path))
    harness = [CheckResult("H-wall", "efficiency", 1, False, 1.0)]
    score = score_run(task, {"checks": {"F1": {"result": 1.0}}}, harness)
    call = {"time": 1.0, "ok": True}
    builds = BuildsEntry(agent_calls=(call,), agent_refused=2, verify={"images": 1})
    result = EngineeringResult(task, score, True, {"accepted": True}, builds)
    block = json.loads(json.dumps(result.to_record()))
    assert set(block) == BLOCK_KEYS
    assert (block["task"], block["category"], block["passed"]) == (task.id, task.category, True)
    assert block["verifier"] == {"accepted": True} and block["score"] == score.score
    assert block["builds"] == {"agent_calls": [call], "agent_refused": 2, "verify": {"images": 1}}
    assert [check["id"] for check in block["checks"]] == [c.id for c in score.checks]
    without = EngineeringResult(task, score, False, {}).to_record()
    assert without["builds"] is None and without["passed"] is False
