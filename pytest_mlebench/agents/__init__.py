"""Agents: the built-ins and agents defined by an mle-bench-style ``config.yaml`` folder.

``load_agent(name)`` accepts a built-in name (``dummy``, ``baseline``) or the path of a folder
holding ``config.yaml`` (format in ``docs/agents.md``, read by :mod:`.folder_agent`). The
built-ins ``dummy`` (one script) and ``baseline`` (a folder with ``__main__.py``) are copied into
the sandbox's agent folder and run with the sandbox's Python, so they behave the same in the local
and Docker backends; ``aide:MODEL`` and ``mini-swe:MODEL`` are shipped agent folders
(:mod:`.aide_folder`, :mod:`.mini_swe_folder`); ``oracle``, ``noop`` and ``cheat:NAME`` are
engineering tasks' own scripts (:mod:`.task_scripts`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pytest_mlebench.agents.aide_folder import load_aide
from pytest_mlebench.agents.folder_agent import FolderAgent, load_folder_agent
from pytest_mlebench.agents.mini_swe_folder import load_mini_swe
from pytest_mlebench.agents.protocol import Agent, AgentTask
from pytest_mlebench.agents.task_scripts import TASK_AGENTS, load_task_agent
from pytest_mlebench.errors import AgentError
from pytest_mlebench.sandbox.interface import ExecResult, Sandbox
from pytest_mlebench.suggest import closest, did_you_mean

SCRIPTS = Path(__file__).with_name("scripts")
BUILTIN_AGENTS: Mapping[str, str] = {
    "dummy": "copies the sample submission and asks the validator about it",
    "baseline": "a generic scikit-learn solver for every embedded data layout",
    "aide": "AIDE (aideml) tree search; --mle-agent aide:MODEL, its model reached via the gateway",
    "mini-swe": "mini-swe-agent, a bash-only agent; --mle-agent mini-swe:MODEL, via the gateway",
    **TASK_AGENTS,
}
MODEL_AGENTS = ("aide", "mini-swe")
SCRIPT_AGENTS = ("dummy", "baseline")

__all__ = ["BUILTIN_AGENTS", "Agent", "AgentTask", "FolderAgent", "ScriptAgent", "load_agent"]


@dataclass(frozen=True)
class ScriptAgent:
    """A built-in agent: a Python script (or a folder with ``__main__.py``) run with the
    sandbox's interpreter."""

    name: str
    script: Path
    privileged: bool = False

    def run(self, sandbox: Sandbox, task: AgentTask) -> ExecResult:
        if task.task_dir is not None:
            raise AgentError(
                f"agent {self.name!r} works on competitions only (it hands in a submission.csv "
                "and never touches the task's workspace): run engineering tasks with oracle, "
                "noop, cheat:NAME, mini-swe:MODEL or an agent folder (docs/engineering.md)"
            )
        target = f"{sandbox.paths.agent}/{self.script.name}"
        sandbox.copy_in(self.script, target)
        return sandbox.exec(
            [sandbox.python, target], timeout=task.time_limit, log_path=task.log_path
        )


def load_agent(name: str, price_table: Path | None = None) -> Agent:
    """A built-in agent by name, or an agent folder by path (``path/to/folder[:agent-id]``).

    ``aide:MODEL`` and ``mini-swe:MODEL`` are the built-in AIDE and mini-swe-agent folders with
    MODEL; ``price_table`` is the user's ``--mle-price-table`` file, which must price that model.
    """
    prefix, _, model = name.partition(":")
    if prefix == "aide":
        return load_aide(model, price_table)
    if prefix == "mini-swe":
        return load_mini_swe(model, price_table)
    task_agent = load_task_agent(name)
    if task_agent is not None:
        return task_agent
    if name in SCRIPT_AGENTS:
        folder = SCRIPTS / name
        return ScriptAgent(name=name, script=folder if folder.is_dir() else SCRIPTS / f"{name}.py")
    folder_text, _, agent_id = name.partition(":")
    folder = Path(folder_text).expanduser()
    if (folder / "config.yaml").is_file():
        return load_folder_agent(folder, agent_id or None)
    raise AgentError(unknown_agent_message(name))


def unknown_agent_message(name: str) -> str:
    """What an unknown ``--mle-agent`` gets: the closest built-in names, every built-in, the
    folder form."""
    known = ", ".join([*sorted(SCRIPT_AGENTS), *(f"{agent}:MODEL" for agent in MODEL_AGENTS)])
    listing = (
        f"built-in agents are {known} ('mlebench agents' describes them); "
        "or pass the path of a folder with config.yaml (see docs/agents.md)"
    )
    offered = closest(name, [*SCRIPT_AGENTS, *MODEL_AGENTS])
    if offered:
        return f"unknown agent {name!r}{did_you_mean(offered)} B{listing[1:]}"
    return f"unknown agent {name!r}: {listing}"
