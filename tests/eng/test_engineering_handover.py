"""An engineering run reaches every report through the hand-over, like a competition's run.

The real plugin runs the echo-service fixture task on the local backend (pytester subprocesses):
its Allure result carries the task's labels, one step per check and the radar; the controller's
progress board shows it start and finish and the terminal summary names it by its label (also
under xdist, where the controller sees node ids only); ``--mle-rerun failed`` selects it again
from the results file. Each session runs the do-nothing agent, the cheapest run that still has
its checks verified.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.eng.test_engineering_run import EngProject


@pytest.fixture
def project(pytester: pytest.Pytester) -> EngProject:
    return EngProject(pytester, "local")


def allure_results(folder: Path) -> list[dict[str, Any]]:
    return [json.loads(path.read_text()) for path in folder.glob("*-result.json")]


def test_an_engineering_run_gets_its_labels_a_step_per_check_and_the_radar_in_allure(
    project: EngProject,
) -> None:
    alluredir = project.root / "allure"
    project.run("noop", "--alluredir", str(alluredir)).assert_outcomes(failed=1)
    (result,) = allure_results(alluredir)
    labels = {(label["name"], label["value"]) for label in result["labels"]}
    assert {("story", "echo-service"), ("feature", "low complexity")} <= labels
    steps = {step["name"].split()[0]: step["status"] for step in result["steps"]}
    (record,) = project.records()
    assert set(steps) == {check["id"] for check in record["engineering"]["checks"]}
    assert steps["F1"] == "failed" and steps["H-audit"] == "passed"
    params = {param["name"]: param for param in result["parameters"]}
    assert params["task_score"]["value"] == "'0.0'" and params["seed"]["value"] == "0"
    hidden = [param for param in params.values() if param.get("mode") == "hidden"]
    assert len(hidden) == 1 and "echo-service" in hidden[0]["value"]
    assert "dimensions" in {attachment["name"] for attachment in result["attachments"]}
    assert result["name"].startswith("echo-service: failed")


@pytest.mark.parametrize("workers", [(), ("-n", "1")], ids=["one-process", "xdist"])
def test_an_engineering_run_is_on_the_progress_board(
    project: EngProject, workers: tuple[str, ...]
) -> None:
    result = project.run("noop", "--mle-progress", "600", *workers)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "mlebench: echo-service preparing",
            "mlebench: echo-service agent running (limit *)",
            "mlebench: echo-service done after *: failed, no score, no medal",
        ]
    )
    # the terminal summary names the run by the same label (not by its test's node id)
    result.stdout.fnmatch_lines(["echo-service * failed  task score *"])


def test_mle_rerun_selects_a_failed_engineering_run_again(project: EngProject) -> None:
    project.run("noop").assert_outcomes(failed=1)
    results = project.root / "reports" / "results.jsonl"
    saved = project.root / "first.jsonl"
    saved.write_bytes(results.read_bytes())
    # only the test module: the first run's folders hold the task's own tests
    again = project.run("noop", "--mle-rerun", "failed", "--mle-from", str(saved), "test_eng.py")
    again.assert_outcomes(failed=1)
    again.stdout.fnmatch_lines([f"mlebench: rerun failed from {saved}: 1 run(s) selected"])
    none = project.run("noop", "--mle-rerun", "timeout", "--mle-from", str(saved), "test_eng.py")
    none.assert_outcomes()
    none.stdout.fnmatch_lines([f"mlebench: rerun timeout from {saved}: 0 run(s) selected"])
