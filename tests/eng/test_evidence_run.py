"""The harness-evidence checks end to end with the echo-service task: on the local backend the
oracle's record carries every new ``H-*`` check at full marks, and on both backends an agent that
hands in a file with an old time, opens a tree to everyone, reaches for the network and writes
outside the contract is scored down for each, without any of it deciding the outcome (the
``H-*`` checks are no gates)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.eng.conftest import eng_image
from tests.eng.test_engineering_run import EngProject

NEW_CHECKS = ("H-cpu", "H-memory", "H-egress", "H-contract", "H-watermark")
# After the oracle's fix, what a careless agent does: a deliverable given an old time, a
# world-writable tree and a download, each in a shell that lives long enough for the audit.
CARELESS = """
touch -d '2 days ago' serve.py
bash -c 'sleep 2.5; chmod -R 777 tests'
bash -c 'sleep 2.5; curl -s -m 1 http://127.0.0.1:9/x || true'
echo stray > "$CODE_DIR/stray.txt"
"""


def checks_of(record: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {check["id"]: check for check in record["engineering"]["checks"]}


@pytest.fixture
def project(pytester: pytest.Pytester) -> EngProject:
    return EngProject(pytester, "local")


@pytest.fixture(params=["local", "docker"])
def either(request: pytest.FixtureRequest, pytester: pytest.Pytester) -> EngProject:
    """Both backends: Docker adds the file-system diff (skipped without an engine)."""
    if request.param == "docker":
        eng_image()
    return EngProject(pytester, request.param)


def test_the_oracle_record_carries_every_new_harness_check(project: EngProject) -> None:
    project.run("oracle", "--mle-require-score", "0.95").assert_outcomes(passed=1)
    (record,) = project.records()
    checks = checks_of(record)
    assert set(NEW_CHECKS) <= set(checks)
    assert all(checks[name]["gate"] is False for name in NEW_CHECKS)
    assert all(checks[name]["result"] == 1.0 for name in NEW_CHECKS)
    assert checks["H-cpu"]["weight"] == 1.0 and "CPU time" in checks["H-cpu"]["evidence"]
    assert checks["H-memory"]["weight"] == 1.0 and "MiB grant" in checks["H-memory"]["evidence"]
    assert "does not isolate the network" in checks["H-egress"]["evidence"]
    assert checks["H-contract"]["weight"] == 0.0  # no file-system diff on the local backend
    assert "Docker backend only" in checks["H-contract"]["evidence"]
    assert checks["H-watermark"]["evidence"].startswith("every changed workspace file")
    assert all(checks[name]["why"] and checks[name]["fix_hint"] for name in NEW_CHECKS)


def test_old_times_destructive_commands_and_downloads_are_scored(either: EngProject) -> None:
    project = either
    task = project.root / "tasks" / "echo-service"
    fix = (task / "solution" / "solve.sh").read_text()  # a cheat gets only its own script
    (task / "cheats" / "careless.sh").write_text(fix + CARELESS)
    project.run("cheat:careless").assert_outcomes(passed=1)  # the gates hold; the score drops
    (record,) = project.records()
    checks = checks_of(record)
    assert (
        checks["H-watermark"]["result"] == 0.0 and "serve.py" in checks["H-watermark"]["evidence"]
    )
    assert checks["H-egress"]["result"] == 0.0 and "curl" in checks["H-egress"]["evidence"]
    rules = {flag["rule"] for flag in record["integrity"]["flags"]}
    assert {"chmod-recursive-777", "network-tool"} <= rules
    # the chmod is H-audit's (medium); the curl is scored once, by H-egress
    assert checks["H-audit"]["result"] == 0.5
    contract = checks["H-contract"]
    if project.backend == "docker":  # CODE_DIR is outside an engineering run's contract
        assert contract["result"] == 0.0 and "/home/code/stray.txt" in contract["evidence"]
    else:
        assert contract["weight"] == 0.0
    assert record["engineering"]["score"] < 1.0 and record["engineering"]["passed"] is True
