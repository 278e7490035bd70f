"""Preparing a task once per seed, and the task agents' names and refusals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mlebench.agents import load_agent
from pytest_mlebench.agents.protocol import AgentTask
from pytest_mlebench.agents.task_scripts import TaskScriptAgent, case_agents
from pytest_mlebench.eng.prepared import prepare_task
from pytest_mlebench.eng.task import load_task
from pytest_mlebench.errors import AgentError, PrepareError
from pytest_mlebench.sandbox.interface import Limits, SandboxSpec
from pytest_mlebench.sandbox.local import LocalSandbox
from tests.eng.task_folders import base_config, write_task

PREPARE = """
def prepare(workspace, private, seed):
    (workspace / "seed.txt").write_text(str(seed))
    (private / "secret.txt").write_text("hidden-%d" % seed)
    with open(workspace.parent.parent / "calls.txt", "a") as handle:
        handle.write("%d\\n" % seed)
    return {"PORT": str(18000 + seed)}
"""


def _task(tmp_path: Path, prepare: str = PREPARE):  # type: ignore[no-untyped-def]
    config = base_config()
    config["env"] = ["PORT"]
    folder = write_task(tmp_path / "tasks", config)
    (folder / "prepare.py").write_text(prepare)
    (folder / "workspace" / "app.py").write_text("print('start')\n")
    return load_task(folder)


def test_a_task_is_prepared_once_per_seed(tmp_path: Path) -> None:
    task = _task(tmp_path)
    data = tmp_path / "data"
    first = prepare_task(task, 2, data)
    again = prepare_task(task, 2, data)
    assert first == again and first.env == {"PORT": "18002"}
    assert (first.workspace / "seed.txt").read_text() == "2"
    assert (first.workspace / "app.py").is_file()
    assert (first.private / "secret.txt").read_text() == "hidden-2"
    assert not any(first.public.iterdir())
    assert json.loads((first.workspace.parent / "env.json").read_text()) == {"PORT": "18002"}
    calls = data / "engineering" / task.id / "calls.txt"
    assert calls.read_text() == "2\n"
    (task.workspace / "app.py").write_text("print('changed')\n")  # an edited task prepares again
    prepare_task(task, 2, data)
    assert calls.read_text() == "2\n2\n"


def test_prepare_may_return_only_declared_env_names(tmp_path: Path) -> None:
    task = _task(tmp_path, "def prepare(workspace, private, seed):\n    return {'OTHER': '1'}\n")
    with pytest.raises(PrepareError, match="returned OTHER, which .*config.yaml does not list"):
        prepare_task(task, 0, tmp_path / "data")


def test_a_failing_prepare_names_its_file(tmp_path: Path) -> None:
    task = _task(tmp_path, "def prepare(workspace, private, seed):\n    raise ValueError('x')\n")
    with pytest.raises(PrepareError, match=r"prepare.py: prepare\(\) failed"):
        prepare_task(task, 0, tmp_path / "data")


def test_the_task_agents_have_their_names() -> None:
    assert load_agent("oracle").name == "oracle"
    assert load_agent("noop").name == "noop"
    assert load_agent("cheat:edit-tests").name == "cheat:edit-tests"
    with pytest.raises(AgentError, match="name the cheat"):
        load_agent("cheat:")


def test_a_list_of_task_agents_gives_each_task_a_case_per_agent(tmp_path: Path) -> None:
    folder = write_task(tmp_path)  # its cheats: say-not-ok and write-nothing
    (folder / "cheats" / "edit-tests.sh").write_text("true\n")
    listed = load_agent("oracle, noop,cheat:*")
    assert listed.name == "oracle,noop,cheat:*"
    cheats = ["cheat:edit-tests", "cheat:say-not-ok", "cheat:write-nothing"]
    assert case_agents(listed, folder) == ["oracle", "noop", *cheats]
    assert case_agents(load_agent("cheat:*"), folder) == cheats
    assert case_agents(load_agent("oracle"), folder) == [None]


@pytest.mark.parametrize(
    ("name", "problem"),
    [("oracle,random", "takes only oracle, noop"), ("noop,noop", "names an agent twice"),
     ("oracle,cheat:", "name the cheat")],
)  # fmt: skip
def test_a_bad_list_of_task_agents_says_what_a_list_takes(name: str, problem: str) -> None:
    with pytest.raises(AgentError, match=problem):
        load_agent(name)


def test_a_list_of_task_agents_refuses_to_run_itself(tmp_path: Path) -> None:
    sandbox = LocalSandbox(
        SandboxSpec(run_id="r", subject="c", seed=0, public_dir=tmp_path, limits=Limits(5))
    )
    task = AgentTask("tiny-task", 0, 5, tmp_path / "a.log", task_dir=write_task(tmp_path))
    with pytest.raises(AgentError, match="names several agents: each runs as a test"):
        load_agent("oracle,noop").run(sandbox, task)


def test_a_task_agent_refuses_a_competition(tmp_path: Path) -> None:
    sandbox = LocalSandbox(
        SandboxSpec(run_id="r", subject="c", seed=0, public_dir=tmp_path, limits=Limits(5))
    )
    task = AgentTask(competition_id="c", seed=0, time_limit=5, log_path=tmp_path / "a.log")
    with pytest.raises(AgentError, match="runs only on engineering tasks"):
        TaskScriptAgent("oracle").run(sandbox, task)


def test_a_missing_cheat_is_named(tmp_path: Path) -> None:
    folder = write_task(tmp_path)
    sandbox = LocalSandbox(
        SandboxSpec(run_id="r", subject="c", seed=0, public_dir=tmp_path, limits=Limits(5))
    )
    task = AgentTask("tiny-task", 0, 5, tmp_path / "a.log", task_dir=folder)
    with pytest.raises(AgentError, match="has no cheats/nothing.sh"):
        TaskScriptAgent("cheat", "nothing").run(sandbox, task)
