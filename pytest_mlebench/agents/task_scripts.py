"""The built-in agents of engineering tasks: ``oracle``, ``noop`` and ``cheat:NAME``.

``oracle`` copies the task's ``solution/`` into the sandbox's agent folder
(``/home/agent/solution`` in Docker) and runs ``bash solve.sh`` there with the workspace
(``$WORK_DIR``) as its working folder; ``cheat:NAME`` does the same with ``cheats/NAME.sh`` (a known
hack the task must catch); ``noop`` does nothing. Only the named agent's own script enters its
sandbox; ``verify/``, the other scripts and the private files never do. They prove each task in
CI: the oracle scores at least 0.95 with every gate passed, ``noop`` fails, each cheat is caught.

A comma-separated list of them (``--mle-agent 'oracle,noop,cheat:*'``) runs as one session with a
test per task and agent: a task author's whole self-check at once, and one session start instead
of three (CI proves every shipped task this way).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pytest_mlebench.agents.protocol import AgentTask
from pytest_mlebench.errors import AgentError
from pytest_mlebench.sandbox.interface import ExecResult, Sandbox

TaskScriptKind = Literal["oracle", "noop", "cheat", "list"]
TASK_AGENTS = {
    "oracle": "an engineering task's own solution (solution/solve.sh): the score to reach",
    "noop": "does nothing (an engineering task's do-nothing run, which must fail)",
    "cheat": "cheat:NAME runs an engineering task's known hack cheats/NAME.sh (must be caught); "
    "'cheat:*' runs every known hack of each task, one test each; a comma-separated list "
    "('oracle,noop,cheat:*') runs each named agent on each task, one test each",
}
RUN_IN_WORKSPACE = 'cd "$WORK_DIR" && exec bash "$0"'


@dataclass(frozen=True)
class TaskScriptAgent:
    """An engineering task's own script as the agent (see the module docstring)."""

    kind: TaskScriptKind
    cheat: str = ""
    privileged: bool = False
    members: tuple[str, ...] = ()  # kind "list": the agents each task runs, one case each

    @property
    def name(self) -> str:
        if self.kind == "list":
            return ",".join(self.members)
        return f"cheat:{self.cheat}" if self.kind == "cheat" else self.kind

    def run(self, sandbox: Sandbox, task: AgentTask) -> ExecResult:
        if task.task_dir is not None and (self.kind == "list" or self.cheat == "*"):
            raise AgentError(
                f"agent {self.name!r} names several agents: each runs as a test of its own "
                "(pytest -m engineering), never as one agent"
            )
        if task.task_dir is None:
            raise AgentError(
                f"agent {self.name!r} runs only on engineering tasks (pytest -m engineering)"
            )
        if self.kind == "noop":
            task.log_path.write_text("noop: did nothing\n", "utf-8")
            return ExecResult(exit_code=0, timed_out=False, wall_seconds=0.0)
        if self.kind == "oracle":
            source, folder = task.task_dir / "solution", f"{sandbox.paths.agent}/solution"
            script = f"{folder}/solve.sh"
        else:
            source = task.task_dir / "cheats" / f"{self.cheat}.sh"
            folder = script = f"{sandbox.paths.agent}/cheats/{self.cheat}.sh"
        if not source.exists():
            raise AgentError(f"{task.competition_id} has no {source.relative_to(task.task_dir)}")
        sandbox.copy_in(source, folder)
        return sandbox.exec(
            ["bash", "-c", RUN_IN_WORKSPACE, script],
            timeout=task.time_limit,
            log_path=task.log_path,
        )


EVERY_CHEAT = "cheat:*"  # one case per known cheat of each task, in one session


def task_cheats(task_folder: Path) -> list[str]:
    """``cheat:NAME`` for each ``cheats/NAME.sh`` of the task in ``task_folder``."""
    return [f"cheat:{path.stem}" for path in sorted((task_folder / "cheats").glob("*.sh"))]


def case_agents(agent: object, task_folder: Path) -> list[str | None]:
    """The agents of one task's cases: ``[None]`` (the session's own agent) for any single
    agent; one ``cheat:NAME`` per cheat for ``cheat:*``; each member of a list, ``cheat:*``
    expanded."""
    several = isinstance(agent, TaskScriptAgent) and (agent.kind == "list" or agent.cheat == "*")
    if not several:
        return [None]
    cases: list[str | None] = []
    assert isinstance(agent, TaskScriptAgent)
    for name in agent.members or (agent.name,):
        cases.extend(task_cheats(task_folder) if name == EVERY_CHEAT else [name])
    return cases


def load_task_agent(name: str) -> TaskScriptAgent | None:
    """``oracle``, ``noop``, ``cheat:NAME`` or a comma-separated list of them as an agent;
    ``None`` for any other name."""
    if "," in name and load_task_agent(name.split(",")[0].strip()) is not None:
        members = tuple(part.strip() for part in name.split(","))
        for member in members:
            if "," in member or load_task_agent(member) is None:
                raise AgentError(
                    f"--mle-agent {name!r}: a list of agents takes only oracle, noop, cheat:NAME "
                    f"and cheat:* ({member!r} is none of them); run other agents one per session"
                )
        if len(set(members)) != len(members):
            raise AgentError(f"--mle-agent {name!r} names an agent twice")
        return TaskScriptAgent("list", members=members)
    kind, _, cheat = name.partition(":")
    if kind == "cheat":
        if not cheat:
            raise AgentError("name the cheat: --mle-agent cheat:NAME (cheats/NAME.sh of a task)")
        return TaskScriptAgent("cheat", cheat)
    if name in ("oracle", "noop"):
        return TaskScriptAgent("oracle" if name == "oracle" else "noop")
    return None
