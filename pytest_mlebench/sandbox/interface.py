"""The ``Sandbox`` ABC: where an agent runs, and the values that go in and come out of it.

Every backend (``local``, ``docker``, or one plugged in through ``pytest_mlebench_make_sandbox``)
implements the same contract and nothing more:

- a lifecycle: ``start``, ``stop(interrupted)`` (also as a context manager);
- ``exec`` of the agent's commands with a harness-owned timeout, ``exec_harness`` of the
  harness's own, ``kill_agent_processes`` once the agent is done;
- ``copy_in`` / ``copy_out`` (bounded, never following the agent's links);
- the *contract paths* (``paths``) and interpreter (``python``), known before ``start``;
- the facts a run records (``backend``, ``isolated``, ``egress_summary``: :class:`SandboxFacts`).

What it is asked to be comes in one :class:`~pytest_mlebench.sandbox.sandbox_spec.SandboxSpec`. The
harness's endpoints the agent reaches from inside (the validator, the image builder, the LLM
gateway) are not members: they are host services in ``spec.services``, which a backend starts,
stops and exposes through one mechanism (:mod:`pytest_mlebench.sandbox.services`), whatever they
are. The conformance suite (:mod:`pytest_mlebench.sandbox.conformance`) holds every backend to the
contract, host services included.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, ClassVar, Protocol

from pytest_mlebench.sandbox.copy_budget import CopyBudget
from pytest_mlebench.sandbox.exec_result import ExecResult as ExecResult  # the value, re-exported
from pytest_mlebench.sandbox.sandbox_spec import Limits as Limits  # the spec's values, re-exported
from pytest_mlebench.sandbox.sandbox_spec import ResourceGrant as ResourceGrant
from pytest_mlebench.sandbox.sandbox_spec import SandboxSpec as SandboxSpec


@dataclass(frozen=True)
class ContractPaths:
    """Paths as the agent sees them inside the sandbox (``/home/...`` in Docker).

    A sandbox knows them from construction on, before it starts, so the harness can render the
    instructions once and copy them in once.
    """

    home: str
    data: str
    submission: str
    logs: str
    code: str
    agent: str
    instructions: str
    validate: str
    work: str = ""  # an engineering task's workspace (``WORK_DIR``); empty: none

    @property
    def submission_file(self) -> str:
        return f"{self.submission}/submission.csv"


class SandboxFacts(Protocol):
    """What a run's record says about its sandbox; a :class:`Sandbox` has it, and so has the
    summary of one that ran on another machine (:mod:`pytest_mlebench.cluster`)."""

    @property
    def backend(self) -> str: ...

    @property
    def isolated(self) -> bool: ...

    def egress_summary(self) -> dict[str, Any] | None: ...


class Sandbox(ABC):
    """An isolated place for one agent run. Use as a context manager: it always stops.

    Attributes:
        backend: The backend's name, recorded with every run (``local``, ``docker``, …).
            A backend plugged in through ``pytest_mlebench_make_sandbox`` sets its own.
        isolated: Whether the agent is confined (own filesystem, network, limits); recorded
            with every run, and the conformance suite's isolation checks run only then.
    """

    backend: ClassVar[str] = "custom"
    isolated: ClassVar[bool] = False

    def __init__(self, spec: SandboxSpec) -> None:
        self.spec = spec

    @property
    @abstractmethod
    def paths(self) -> ContractPaths:
        """The contract paths inside this sandbox; known from construction on."""

    @property
    @abstractmethod
    def python(self) -> str:
        """The Python interpreter agents should run inside this sandbox."""

    @abstractmethod
    def start(self) -> None:
        """Create the sandbox: data visible read-only, empty submission/logs/code folders, and
        ``spec.services`` started in the backend's service site (or declared unreachable)."""

    @abstractmethod
    def exec(
        self,
        command: Sequence[str],
        *,
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
        log_path: Path | None = None,
    ) -> ExecResult:
        """Run ``command`` inside the sandbox as the agent user, wrapped by ``spec.services``
        and with their variables (after :meth:`contract_env` and ``env``).

        The whole process tree is killed when ``timeout`` seconds have passed
        (``timed_out`` is then True). Output is streamed to ``log_path`` (host side) when given.
        """

    @abstractmethod
    def copy_in(self, source: Path, destination: str) -> None:
        """Copy a host file or folder to ``destination`` inside the sandbox."""

    @abstractmethod
    def copy_out(
        self,
        source: str,
        destination: Path,
        *,
        max_file_bytes: int | None = None,
        budget: CopyBudget | None = None,
    ) -> bool:
        """Copy ``source`` from inside the sandbox to the host; False if it does not exist.

        Symbolic links and special files are never opened; a file over ``max_file_bytes`` is
        left behind with a ``<name>.omitted.txt`` note; every write is admitted by ``budget``
        (the run's, shared by all its copies; ``None``: a fresh one with the default caps), so
        the whole copy-out stays within its total by apparent size
        (:mod:`pytest_mlebench.sandbox.copying`, :mod:`pytest_mlebench.sandbox.copy_budget`).
        """

    @abstractmethod
    def stop(self, interrupted: bool = False) -> None:
        """Stop and remove everything this sandbox created, ``spec.services`` included. Safe to
        call twice."""

    def egress_summary(self) -> dict[str, Any] | None:
        """Attempts to reach the outside through an ``allow`` network's proxy (``None``: none)."""
        return None

    def contract_env(self) -> dict[str, str]:
        """Environment variables every agent gets: the contract paths and the run's own
        (``spec.env``, with ``WORK_DIR`` when the sandbox has a workspace). A backend adds its
        host services' (:meth:`~pytest_mlebench.sandbox.services.Services.env`) last."""
        paths, spec = self.paths, self.spec
        env = {
            "COMPETITION_ID": spec.subject,
            "MLEBENCH_SEED": str(spec.seed),
            "TIME_LIMIT_SECS": str(int(spec.limits.time_limit)),
            "DATA_DIR": paths.data,
            "SUBMISSION_DIR": paths.submission,
            "LOGS_DIR": paths.logs,
            "CODE_DIR": paths.code,
            "AGENT_DIR": paths.agent,
            "INSTRUCTIONS_FILE": paths.instructions,
            "VALIDATE_SUBMISSION": paths.validate,
        }
        if not spec.workspace:
            return {**env, **spec.env}
        work = paths.work
        extra = {key: value.replace("{WORK_DIR}", work) for key, value in spec.env.items()}
        return {**env, "WORK_DIR": work, **extra}

    def exec_harness(
        self, command: Sequence[str], *, timeout: float | None = None, log_path: Path | None = None
    ) -> ExecResult:
        """Run the harness's own code (the inventory), never the agent's: as a user the agent
        does not own, with a clean environment; start it as ``python3 -I -S -c`` so nothing the
        agent left (a ``usercustomize.py``, a ``.pth``) runs in it. The base class has no other
        user and runs it as the agent (:meth:`exec`); the built-in backends override this."""
        return self.exec(command, timeout=timeout, log_path=log_path)

    def kill_agent_processes(self) -> None:
        """Kill every process the agent left running (a service started in the background).

        Called after the agent's main process ended, before its workspace is copied out, so no
        agent process is alive when a verifier looks at it. The base class has nothing to kill;
        the built-in backends override it.
        """
        return None

    def __enter__(self) -> Sandbox:
        self.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        interrupted = exc_type is not None and issubclass(exc_type, KeyboardInterrupt)
        self.stop(interrupted=interrupted)
