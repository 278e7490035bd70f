"""The built-in agents of engineering tasks: ``oracle``, ``noop`` and ``cheat:NAME``.

``oracle`` copies the task's ``solution/`` into the sandbox's agent folder
(``/home/agent/solution`` in Docker) and runs ``bash solve.sh`` there with the workspace
(``$WORK_DIR``) as its working folder; ``cheat:NAME`` does the same with ``cheats/NAME.sh`` (a known
hack the task must catch); ``noop`` does nothing. Only the named agent's own script enters its
sandbox; ``verify/``, the other scripts and the private files never do. They prove each task in
CI: the oracle scores at least 0.95 with every gate passed, ``noop`` fails, each cheat is caught.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pytest_mlebench.agents.protocol import AgentTask
from pytest_mlebench.errors import AgentError
from pytest_mlebench.sandbox.interface import ExecResult, Sandbox

TaskScriptKind = Literal["oracle", "noop", "cheat"]
TASK_AGENTS = {
    "oracle": "an engineering task's own solution (solution/solve.sh): the score to reach",
    "noop": "does nothing (an engineering task's do-nothing run, which must fail)",
    "cheat": "cheat:NAME runs an engineering task's known hack cheats/NAME.sh (must be caught); "
    "'cheat:*' runs every known hack of each task, one test each",
}
RUN_IN_WORKSPACE = 'cd "$WORK_DIR" && exec bash "$0"'


@dataclass(frozen=True)
class TaskScriptAgent:
    """An engineering task's own script as the agent (see the module docstring)."""

    kind: TaskScriptKind
    cheat: str = ""
    privileged: bool = False

    @property
    def name(self) -> str:
        return f"cheat:{self.cheat}" if self.kind == "cheat" else self.kind

    def run(self, sandbox: Sandbox, task: AgentTask) -> ExecResult:
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


def load_task_agent(name: str) -> TaskScriptAgent | None:
    """``oracle``, ``noop`` or ``cheat:NAME`` as an agent; ``None`` for any other name."""
    kind, _, cheat = name.partition(":")
    if kind == "cheat":
        if not cheat:
            raise AgentError("name the cheat: --mle-agent cheat:NAME (cheats/NAME.sh of a task)")
        return TaskScriptAgent("cheat", cheat)
    if name in ("oracle", "noop"):
        return TaskScriptAgent("oracle" if name == "oracle" else "noop")
    return None
