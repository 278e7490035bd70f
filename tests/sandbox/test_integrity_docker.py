"""The integrity evidence in Docker: the engine's process audit, the image search, the diff.

The adversarial agent folders of ``tests/integrity/agents`` run through the real plugin with
``--mle-sandbox docker``; skipped where no engine answers.
"""

from __future__ import annotations

import pytest

from tests.integrity.conftest import AGENTS, ExampleProject, flags_of, project, records_of

pytestmark = [pytest.mark.usefixtures("docker_image"), pytest.mark.timeout(600)]

__all__ = ["project"]


def test_editor_and_network_tool_are_seen_by_the_engine(project: ExampleProject) -> None:
    result = project.run(
        "-k", "toy-a", "--mle-agent", str(AGENTS / "editor"), "--mle-sandbox", "docker"
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
        "-k", "toy-b", "--mle-agent", str(AGENTS / "premade"), "--mle-sandbox", "docker"
    )
    result.assert_outcomes(passed=1)
    (record,) = records_of(project.root)
    (flag,) = [f for f in flags_of(record) if f["rule"] == "pre-made-submission"]
    assert "/home/agent/submission.csv" in flag["evidence"]["files"]  # found inside the container
    assert not [f for f in flags_of(record) if f["rule"] == "outside-contract"]
