"""Engineering runs end to end on both backends, with the echo-service fixture task.

The oracle passes with S ≥ 0.95, the do-nothing agent fails, a cheat that edits the visible tests
and one that writes a fake ``checks.json`` are caught, and a verifier that breaks fails the run. The
Docker variant builds the eng image when it is missing (the verifier's image) and is skipped
without a Docker engine.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.eng.conftest import eng_image

TASKS = Path(__file__).parent / "tasks"


class EngProject:
    def __init__(self, pytester: pytest.Pytester, backend: str) -> None:
        self.pytester = pytester
        self.backend = backend
        self.root = pytester.path
        shutil.copytree(TASKS, self.root / "tasks")
        pytester.makepyfile(
            test_eng="from pytest_mlebench.benchmark import test_engineering_task\n"
            "__all__ = ['test_engineering_task']\n"
        )

    def run(self, agent: str, *extra: str) -> pytest.RunResult:
        return self.pytester.runpytest_subprocess(
            "--mle-engineering-dir",
            str(self.root / "tasks"),
            "--mle-data-dir",
            str(self.root / "data"),
            "--mle-results",
            str(self.root / "reports" / "results.jsonl"),
            "--mle-sandbox",
            self.backend,
            "--mle-agent",
            agent,
            "-m",
            "engineering",
            "-k",
            "echo-service",  # the fixture task only, not the shipped ones
            "-p",
            "no:randomly",
            "--ignore",
            str(self.root / "tasks"),
            *extra,
        )

    def records(self) -> list[dict[str, Any]]:
        path = self.root / "reports" / "results.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


@pytest.fixture(params=["local", "docker"])
def project(request: pytest.FixtureRequest, pytester: pytest.Pytester) -> EngProject:
    if request.param == "docker":
        eng_image()
    return EngProject(pytester, request.param)


def _checks(record: dict[str, Any]) -> dict[str, float]:
    return {check["id"]: check["result"] for check in record["engineering"]["checks"]}


def test_the_oracle_passes_with_a_high_score(project: EngProject) -> None:
    result = project.run("oracle", "--mle-require-score", "0.95")
    result.assert_outcomes(passed=1)
    (record,) = project.records()
    assert record["test_id"].endswith("test_engineering_task[echo-service]")
    block = record["engineering"]
    assert record["outcome"] == "passed" and record["competition_id"] == "echo-service"
    assert block["score"] >= 0.95 and block["passed"] is True
    assert _checks(record) | {"H-wall": 1.0} == {
        "F1": 1.0,
        "F2": 1.0,
        "R1": 1.0,
        "X1": 1.0,
        "H-wall": 1.0,
        "H-audit": 1.0,
        "H-secrets": 1.0,
        "H-cpu": 1.0,
        "H-memory": 1.0,
        "H-egress": 1.0,
        "H-contract": 1.0,
        "H-watermark": 1.0,
    }
    assert block["redistributed"] == []
    assert block["verifier"]["exit_status"] == 0 and block["verifier"]["accepted"] is True
    run_dir = Path(record["run_dir"])
    assert (run_dir / "workspace" / "serve.py").is_file()
    assert (run_dir / "verify.log").is_file()
    assert (run_dir / "mle-bench-start.time").read_text().isdigit()


def test_noop_fails_its_gates_with_its_score_recorded(project: EngProject) -> None:
    result = project.run("noop")
    result.assert_outcomes(failed=1)
    (record,) = project.records()
    assert record["outcome"] == "failed"
    assert "gate check(s) failed: F1 [functional], F2 [functional]" in record["reason"]
    assert _checks(record)["F1"] == 0.0 and record["engineering"]["score"] == 0.0


def test_a_cheat_that_edits_the_visible_tests_is_caught(project: EngProject) -> None:
    result = project.run("cheat:edit-tests")
    result.assert_outcomes(failed=1)
    (record,) = project.records()
    assert _checks(record)["F2"] == 0.0
    # the agent's edit is kept in the copied-out workspace, the verifier used the pristine file
    edited = Path(record["run_dir"]) / "workspace" / "tests" / "test_visible.py"
    assert "assert True" in edited.read_text()


def test_a_cheat_that_writes_a_fake_results_file_is_caught(project: EngProject) -> None:
    result = project.run("cheat:fake-checks")
    result.assert_outcomes(failed=1)
    (record,) = project.records()
    assert _checks(record)["F1"] == 0.0 and record["engineering"]["passed"] is False


def test_a_verifier_that_breaks_fails_the_run_with_the_reason(project: EngProject) -> None:
    """Pytest's status 2–5 is no result the host accepts: the agent's code ran in that verifier,
    so the run fails (scored with no check passed); a task's own broken verifier shows in its
    oracle run instead, which CI proves for every task."""
    conftest = project.root / "tasks" / "echo-service" / "verify" / "conftest.py"
    conftest.write_text("raise RuntimeError('the verifier itself is broken')\n")
    result = project.run("oracle")
    result.assert_outcomes(failed=1)
    (record,) = project.records()
    assert record["outcome"] == "failed"
    assert "the verifier was killed or its results were tampered with" in record["reason"]
    block = record["engineering"]
    assert block["score"] == 0.0 and block["passed"] is False
    assert block["verifier"]["accepted"] is False and block["verifier"]["exit_status"] in (2, 3, 4)


FORGING_SERVICE = r"""
# The service the verifier starts forges the results as it starts: a document claiming every
# check passed, sealed with the run's key where it can read one, written where the verifier
# writes, then it kills the verifier so the plugin cannot overwrite it.
set -eu
cat > serve.py <<'PY'
import hashlib, hmac, json, os, signal
entry = {"passed": 1, "total": 1, "result": 1.0, "evidence": [], "tests": []}
doc = {"version": 1, "exit_status": 0, "wall_s": 1.0, "metrics": {},
       "checks": {name: entry for name in ("F1", "F2", "R1", "X1")}}
try:
    key = bytes.fromhex(open("/run/mlebench-verify/key").read().strip())
    body = json.dumps(doc, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()
    doc["seal"] = hmac.new(key, body, hashlib.sha256).hexdigest()
except OSError:
    pass
try:
    with open(os.path.join(os.environ["VERIFY_OUT"], "checks.json"), "w") as handle:
        json.dump(doc, handle)
    os.kill(os.getppid(), signal.SIGKILL)
except (OSError, KeyError):
    pass
PY
"""


def test_a_service_that_forges_the_results_and_kills_the_verifier_fails(
    project: EngProject,
) -> None:
    """An attack the shipped cheats do not try: the agent's own entry point, started by the
    verifier, writes a forged (and, where it can read the key, sealed) ``checks.json`` and kills
    the verifier. Started through the verifier's door it runs as ``nobody`` in a fresh
    environment: it finds neither ``$VERIFY_OUT`` nor the key and cannot signal the verifier, so
    the real checks fail it; had it got through, the host would see a verifier that did not exit
    normally and reject its results. Either way the run fails, scored 0."""
    cheats = project.root / "tasks" / "echo-service" / "cheats"
    (cheats / "forging-service.sh").write_text(FORGING_SERVICE)
    result = project.run("cheat:forging-service")
    result.assert_outcomes(failed=1)
    (record,) = project.records()
    block = record["engineering"]
    assert record["outcome"] == "failed" and block["score"] == 0.0
    reason = record["reason"]
    assert "gate check(s) failed" in reason or "its results were tampered with" in reason


def test_a_score_below_require_score_fails(project: EngProject) -> None:
    if project.backend == "docker":
        pytest.skip("the threshold is the engine's, not the backend's: the local run covers it")
    solve = project.root / "tasks" / "echo-service" / "solution" / "solve.sh"
    # only the gates: no health route, no log
    solve.write_text(
        "python3 - <<'PY'\nfrom pathlib import Path\np = Path('serve.py')\n"
        "p.write_text(p.read_text().replace('return {\"echo\": text}', "
        "'return {\"echo\": prefix + text}'))\nPY\n"
    )
    result = project.run("oracle", "--mle-require-score", "0.95")
    result.assert_outcomes(failed=1)
    (record,) = project.records()
    assert record["engineering"]["failed_gates"] == []
    assert "below --mle-require-score 0.95" in record["reason"]
