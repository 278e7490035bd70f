"""The integrity evidence in Docker: the engine's process audit, the image search, the diff.

The adversarial agent folders of ``tests/integrity/agents`` run through the real plugin with
``--mle-sandbox docker``; skipped where no engine answers.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.integrity.conftest import AGENTS, ExampleProject, flags_of, project, records_of

pytestmark = [pytest.mark.usefixtures("docker_image"), pytest.mark.timeout(600)]

__all__ = ["project"]


def test_editor_and_network_tool_are_seen_by_the_engine(project: ExampleProject) -> None:
    result = project.run(
        "-k", "toy-a", f"--mle-agent={AGENTS / 'editor'}", "--mle-sandbox", "docker"
    )
    result.assert_outcomes(passed=1)
    (record,) = records_of(project.root)
    assert record["sandbox"] == "docker"
    found = {f["rule"]: f for f in flags_of(record) if f["kind"] == "process"}
    assert found["editor"]["evidence"]["command"].startswith("vim /home/submission/submission.csv")
    assert "curl -sSLO" in found["network-tool"]["evidence"]["command"]
    integrity = record["integrity"]
    assert integrity["checks"]["outside-contract"] == "ran"
    assert "the Docker engine's top" in integrity["disclosure"]["process_audit"]
    assert integrity["disclosure"]["isolation"] == "isolated sandbox"


def test_premade_submission_is_found_in_the_image(project: ExampleProject) -> None:
    result = project.run(
        "-k", "toy-b", f"--mle-agent={AGENTS / 'premade'}", "--mle-sandbox", "docker"
    )
    result.assert_outcomes(passed=1)
    (record,) = records_of(project.root)
    (flag,) = [f for f in flags_of(record) if f["rule"] == "pre-made-submission"]
    assert "/home/agent/submission.csv" in flag["evidence"]["files"]  # found inside the container
    assert not [f for f in flags_of(record) if f["rule"] == "outside-contract"]


def test_refused_hosts_of_an_allow_list_are_network_attempt_flags(project: ExampleProject) -> None:
    """The agent asks the proxy for two hosts outside the allow-list (refused by name, so no
    outside server or DNS is needed); the allowed host is disclosed, never flagged."""
    result = project.run(
        "-k", "toy-a", f"--mle-agent={AGENTS / 'netprobe'}", "--mle-sandbox", "docker",
        "--mle-network", "allow:allowed.example",
    )  # fmt: skip
    result.assert_outcomes(passed=1)
    (record,) = records_of(project.root)
    found = {f["evidence"]["host"]: f for f in flags_of(record) if f["rule"] == "network-attempt"}
    assert sorted(found) == ["denied.example", "other-denied.example"]
    assert found["denied.example"]["evidence"]["count"] == 2
    assert found["denied.example"]["severity"] == "medium"
    assert found["denied.example"]["evidence"]["first"]
    disclosure = record["integrity"]["disclosure"]["network"]
    assert disclosure.startswith("allow-list of allowed.example; 3 denied attempts")
    assert record["egress"]["denied"] == {"denied.example": 2, "other-denied.example": 1}


# VmHWM, not getrusage's ru_maxrss: Linux carries ru_maxrss across exec, so a session started by
# a large xdist worker would report the worker's size; VmHWM is the peak of this process's own
# memory since its exec.
PEAK_CONFTEST = """
import json, os
def pytest_sessionfinish(session):
    with open("/proc/self/status") as status:
        line = next(line for line in status if line.startswith("VmHWM:"))
    peak = int(line.split()[1]) * 1024
    with open(os.path.join(str(session.config.rootpath), "peak.json"), "w") as handle:
        json.dump({"peak_rss_bytes": peak}, handle)
"""


def test_a_sparse_bomb_stays_in_the_sandbox(project: ExampleProject) -> None:
    """A sparse 5 GiB submission and a sparse 95 MB log of one line: the worker stays small,
    the submission is refused from the engine's stat and graded invalid for its size."""
    project.pytester.makeconftest(PEAK_CONFTEST)
    result = project.run(
        "-k", "toy-a", f"--mle-agent={AGENTS / 'sparse'}", "--mle-sandbox", "docker"
    )
    result.assert_outcomes(failed=1)  # an invalid submission, below the default gate
    (record,) = records_of(project.root)
    reason = record["grade"]["invalid_reason"]
    assert reason.startswith("submission.csv not copied out of the sandbox: 5368709120 bytes")
    run_dir = Path(record["run_dir"])
    apparent = sum(p.stat().st_size for p in run_dir.rglob("*") if p.is_file())
    assert apparent <= 1024**3 + 64 * 1024**2  # the copy-out's total, and the harness's files
    assert not (run_dir / "submission.csv").exists()
    assert (run_dir / "logs" / "train.log").stat().st_blocks * 512 < 1024**2  # still sparse
    peak = json.loads((project.root / "peak.json").read_text())["peak_rss_bytes"]
    print(f"the worker's peak: {peak / 1024**2:.0f} MB")
    assert peak < 1024**3, f"the worker peaked at {peak / 1024**2:.0f} MB"
