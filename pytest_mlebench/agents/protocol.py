"""The ``Agent`` role and what an agent is told about its task."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Protocol, runtime_checkable

from pytest_mlebench.sandbox.interface import ExecResult, Sandbox


@dataclass(frozen=True)
class AgentTask:
    """One agent run: which competition, which seed, how long, where the host keeps its log.

    ``task_dir`` is the folder of an engineering task (``None`` for a competition): the task's
    own agents (:mod:`.task_scripts`) take their script from it.
    """

    competition_id: str
    seed: int
    time_limit: float
    log_path: Path
    task_dir: Path | None = None


@runtime_checkable
class Agent(Protocol):
    """Something that works on a competition inside a started sandbox.

    ``run`` must leave ``/home/submission/submission.csv`` (``SUBMISSION_DIR``) behind and return
    the :class:`ExecResult` of its main process; the harness, not the agent, enforces the deadline.
    Two optional attributes are read when present: ``gateway`` (a
    :class:`~pytest_mlebench.gateway.GatewayConfig`: the run gets an LLM gateway) and ``network``
    (``none``, ``bridge`` or ``allow:HOST,...``, used when ``--mle-network`` is not given).
    """

    @property
    def name(self) -> str:
        """Name recorded in every result."""

    @property
    def privileged(self) -> bool:
        """Whether the agent asks for a privileged container (needs --mle-privileged yes)."""

    def run(self, sandbox: Sandbox, task: AgentTask) -> ExecResult: ...
