"""mini-swe-agent end to end: the real plugin, the real mini-swe-agent, a FAKE upstream.

The benchmark runs ``titanic`` with a copy of the built-in mini-swe-agent folder; the agent's model
calls go through the run's LLM gateway to the scripted FAKE upstream (``scripted_mini_swe.py``),
whose bash steps write and run a solution, validate its submission and finish.

Local backend: mini-swe-agent's locked packages are put in front of this interpreter
(``mini_swe_on_path``). Docker backend: the harness builds the folder's Dockerfile FROM the
``base`` profile rather than the folder's ``ml`` (the solution needs only pandas and
scikit-learn, which base has): the base image plus mini-swe-agent's lock.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
import yaml

from pytest_mlebench.agents.mini_swe_folder import MINI_SWE_FOLDER
from tests.aide.test_aide_runs import MEDALS, only_record, run_titanic
from tests.gateway.conftest import PROVIDER_KEY
from tests.gateway.fake_upstream import FakeUpstream
from tests.mini_swe.scripted_mini_swe import CALL_TOKENS, COMMANDS, INPUT_TOKENS, OUTPUT_TOKENS
from tests.sandbox.conftest import docker_image

__all__ = ["docker_image"]  # the session's base image, built once (tests/sandbox)

pytestmark = pytest.mark.usefixtures("mini_swe_on_path")

STEPS = len(COMMANDS)  # solve, validate, finish: one model call each


def mini_swe_copy(root: Path, model: str = "gpt-4o-mini") -> Path:
    """The built-in mini-swe-agent folder with ``model``, its image built FROM ``base``."""
    folder = root / "mini-swe-agent"
    shutil.copytree(MINI_SWE_FOLDER, folder)
    config = yaml.safe_load((folder / "config.yaml").read_text())
    config["mini-swe"]["kwargs"]["model"] = model
    config["mini-swe"]["image"] = "base"
    (folder / "config.yaml").write_text(yaml.safe_dump(config))
    return folder


def files_holding(folder: Path, secret: str) -> list[Path]:
    return [
        path
        for path in folder.rglob("*")
        if path.is_file() and secret in path.read_text(errors="replace")
    ]


@pytest.mark.parametrize("backend", ["local", "docker"])
def test_mini_swe_solves_titanic_through_the_gateway(
    tmp_path: Path,
    fake_mini_swe_upstream: FakeUpstream,
    backend: str,
    request: pytest.FixtureRequest,
) -> None:
    if backend == "docker":
        request.getfixturevalue("docker_image")
    agent = mini_swe_copy(tmp_path)
    done = run_titanic(
        tmp_path, "--mle-agent", f"{agent}:mini-swe", "--mle-require", "bronze", backend=backend
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    record = only_record(tmp_path)
    assert record["outcome"] == "passed"
    if backend == "docker":  # the folder's own image ran, not the plain agent image
        assert str(record.get("image")).startswith("pytest-mlebench-agent-mini-swe:")
    assert record["grade"]["valid_submission"] is True
    assert record["grade"]["award"]["medal"] in MEDALS
    gateway = record["gateway"]
    assert (gateway["calls"], gateway["input_tokens"], gateway["output_tokens"]) == (
        STEPS,
        STEPS * INPUT_TOKENS,
        STEPS * OUTPUT_TOKENS,
    )
    assert gateway["cost_usd"] == pytest.approx(
        STEPS * (INPUT_TOKENS * 0.15 + OUTPUT_TOKENS * 0.6) / 1e6
    )
    assert gateway["budget_exhausted"] is False
    run_dir = Path(record["run_dir"])
    transcript = [json.loads(line) for line in (run_dir / "gateway.jsonl").read_text().splitlines()]
    assert [entry["model"] for entry in transcript] == ["gpt-4o-mini"] * STEPS
    assert all(entry["request"]["tools"][0]["function"]["name"] == "bash" for entry in transcript)
    # each step saw the output of the one before: the printed score, then the validator's verdict
    assert "Validation ROC AUC" in json.dumps(transcript[1]["request"]["messages"][-1])
    assert "<returncode>0</returncode>" in json.dumps(transcript[2]["request"]["messages"][-1])
    assert "HistGradientBoosting" in (run_dir / "code" / "solve.py").read_text()
    trajectory = json.loads((run_dir / "logs" / "mini-swe" / "trajectory.json").read_text())
    assert trajectory["info"]["exit_status"] == "Submitted"
    assert record["stop_reason"] == (  # the agent's own word, in the record
        "Submitted: the agent finished (it printed COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT) "
        f"({STEPS} model call(s), {STEPS} command(s) run)"
    )
    assert all(e["request"]["max_completion_tokens"] == 2048 for e in transcript)
    assert [r.headers["Authorization"] for r in fake_mini_swe_upstream.received] == [
        f"Bearer {PROVIDER_KEY}"
    ] * STEPS
    assert files_holding(run_dir, PROVIDER_KEY) == []  # the key stayed upstream of the sandbox


def test_a_token_budget_cuts_mini_swe_off_after_one_step_and_its_submission_is_graded(
    tmp_path: Path, fake_mini_swe_upstream: FakeUpstream
) -> None:
    agent = mini_swe_copy(tmp_path)
    done = run_titanic(
        tmp_path, "--mle-agent", f"{agent}:mini-swe", "--mle-token-budget", str(CALL_TOKENS)
    )
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    record = only_record(tmp_path)
    assert record["gateway"]["budget_exhausted"] is True
    assert "budget_exhausted" in record["reason"]
    assert (record["gateway"]["calls"], record["gateway"]["refused_calls"]) == (1, 1)
    assert len(fake_mini_swe_upstream.received) == 1  # the refusal never went upstream
    assert record["grade"]["valid_submission"] is True  # the first step's submission
    assert record["grade"]["award"]["medal"] in MEDALS
    assert record["exit_code"] == 0  # the agent ended cleanly on the refusal
    assert "mini-swe: LLM budget spent" in (Path(record["run_dir"]) / "agent.log").read_text()
    trajectory = json.loads(
        (Path(record["run_dir"]) / "logs" / "mini-swe" / "trajectory.json").read_text()
    )
    assert trajectory["info"]["exit_status"] == "BudgetExhausted"
    assert str(record["stop_reason"]).startswith("BudgetExhausted: the run's LLM budget is spent")
