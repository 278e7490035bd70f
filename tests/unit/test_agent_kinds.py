"""An agent on the wrong kind of benchmark test: a usage error when the whole selection is of the
other kind, an ``error`` run (the agent refuses) in a mixed one, never a scored failure."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.agents import AgentTask, load_agent
from pytest_mlebench.errors import AgentError
from pytest_mlebench.sandbox.interface import Limits, SandboxSpec
from pytest_mlebench.sandbox.local import LocalSandbox
from pytest_mlebench.usage_checks import agent_kind_problem


@pytest.mark.parametrize("name", ["dummy", "baseline"])
def test_a_competition_agent_on_only_engineering_tasks_is_a_usage_error(name: str) -> None:
    problem = agent_kind_problem(load_agent(name), competitions=0, tasks=3)
    assert problem is not None
    assert problem.startswith(f"agent {name!r} works on competitions only")
    assert "--mle-agent (oracle, noop, cheat:NAME" in problem


def test_a_task_agent_on_only_competitions_is_a_usage_error() -> None:
    problem = agent_kind_problem(load_agent("oracle"), competitions=2, tasks=0)
    assert problem is not None and "runs only on engineering tasks" in problem


@pytest.mark.parametrize("name", ["dummy", "oracle"])
def test_a_mixed_or_matching_selection_is_no_usage_error(name: str) -> None:
    agent = load_agent(name)
    assert agent_kind_problem(agent, competitions=2, tasks=3) is None
    right = {"competitions": 2, "tasks": 0} if name == "dummy" else {"competitions": 0, "tasks": 2}
    assert agent_kind_problem(agent, **right) is None


def test_dummy_refuses_an_engineering_task_as_oracle_refuses_a_competition(tmp_path: Path) -> None:
    sandbox = LocalSandbox(
        SandboxSpec(run_id="r", subject="t", seed=0, public_dir=tmp_path, limits=Limits(5))
    )
    task = AgentTask("t", 0, 5, tmp_path / "a.log", task_dir=tmp_path)
    with pytest.raises(AgentError, match="'dummy' works on competitions only"):
        load_agent("dummy").run(sandbox, task)
