"""The ``Sandbox`` ABC: where an agent runs, and the values that go in and come out of it.

Every backend (``local``, ``docker``, or one plugged in through ``pytest_mlebench_make_sandbox``)
implements the same lifecycle — ``start``, ``exec`` with a harness-owned timeout, ``copy_in`` /
``copy_out``, ``stop`` — and the same *contract paths* so one agent runs unchanged everywhere. The
base class owns what every backend shares: the contract environment and the host-side validator
behind ``validate_submission.sh`` with its call log. The conformance suite
(:mod:`pytest_mlebench.sandbox.conformance`) holds every backend to the contract.
"""

from __future__ import annotations

import logging
import shutil
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol

from pytest_mlebench.sandbox.build_endpoint import BuildCall, BuildServer, ContextBuild
from pytest_mlebench.sandbox.copy_budget import CopyBudget
from pytest_mlebench.sandbox.exec_result import ExecResult as ExecResult  # the value, re-exported
from pytest_mlebench.sandbox.validator import SubmissionValidator, ValidationCall, ValidatorServer
from pytest_mlebench.values.time_limit import DEFAULT_SANDBOX_GRACE

if TYPE_CHECKING:
    from pytest_mlebench.gateway import Gateway

log = logging.getLogger(__name__)

Network = Literal["none", "bridge", "allow"]


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


@dataclass(frozen=True)
class ResourceGrant:
    """What a sandbox is granted; recorded in every result. ``None`` means "no limit set"."""

    cpus: float | None = None
    memory: str | None = None
    shm: str | None = None
    pids: int | None = None
    gpus: tuple[str, ...] = ()


@dataclass(frozen=True)
class SandboxSpec:
    """Everything a backend needs to start one sandbox for one run.

    Attributes:
        run_id: Unique id of this run (also used in container names and labels).
        competition_id: The competition the agent works on.
        seed: The run's seed, passed to the agent as ``MLEBENCH_SEED``.
        public_dir: Host folder with the competition's public data (mounted read-only).
        time_limit: Seconds the agent gets; the harness kills it at the deadline.
        resources: Limits to apply.
        network: ``none`` (default, isolated), ``bridge`` (open) or ``allow`` (only
            ``allowed_hosts``, through the harness's proxy; Docker only).
        allowed_hosts: The hosts an ``allow`` network lets through.
        validator: Host-side check behind ``validate_submission.sh`` (never returns a score).
        labels: Extra labels for the sandbox (Docker labels; informational for local).
        env: Extra environment variables for the agent.
        hidden_paths: Host folders the agent must not see (the data cache with the answers,
            credentials). Docker never mounts them; the local backend masks them where it can.
        gateway: The run's LLM gateway (not started); the backend serves it on a socket in
            the sandbox and wraps the agent's commands in its forwarder
            (:mod:`pytest_mlebench.gateway`).
        log_dir: Host folder for the sandbox's own logs (the egress proxy's), the run folder.
        validator_interval: Seconds between two answered validator calls (the rate limit).
        expiry_grace: Seconds a sandbox may outlive its deadline when the harness is gone
            (Docker: the container stops itself then, :mod:`~.docker.expiry`).
        workspace: Whether the sandbox has an engineering task's workspace: an empty folder at
            ``paths.work`` the agent may write, made by :meth:`Sandbox.start`, named by
            ``WORK_DIR``; ``{WORK_DIR}`` in an ``env`` value stands for that folder.
        builder: The harness's image builder behind ``build_image.sh`` (a task whose
            ``config.yaml`` declares ``builder:``; Docker only, :mod:`.build_endpoint`).
        builder_interval: Seconds between two answered build requests (the rate limit).
    """

    run_id: str
    competition_id: str
    seed: int
    public_dir: Path
    time_limit: float
    resources: ResourceGrant = field(default_factory=ResourceGrant)
    network: Network = "none"
    validator: SubmissionValidator | None = None
    labels: Mapping[str, str] = field(default_factory=dict)
    env: Mapping[str, str] = field(default_factory=dict)
    hidden_paths: tuple[Path, ...] = ()
    allowed_hosts: tuple[str, ...] = ()
    gateway: Gateway | None = None
    log_dir: Path | None = None
    validator_interval: float = 1.0
    expiry_grace: float = float(DEFAULT_SANDBOX_GRACE)
    workspace: bool = False
    builder: ContextBuild | None = None
    builder_interval: float = 5.0


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
        self._validator: ValidatorServer | None = None
        self._builder: BuildServer | None = None

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
        """Create the sandbox: data visible read-only, empty submission/logs/code folders."""

    @abstractmethod
    def exec(
        self,
        command: Sequence[str],
        *,
        timeout: float | None = None,
        env: Mapping[str, str] | None = None,
        log_path: Path | None = None,
    ) -> ExecResult:
        """Run ``command`` inside the sandbox as the agent user.

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
        """Stop and remove everything this sandbox created. Safe to call twice."""

    @property
    def validation_calls(self) -> list[ValidationCall]:
        """Calls the agent made to the validator so far (kept after :meth:`stop`)."""
        return list(self._validator.calls) if self._validator is not None else []

    @property
    def validation_refused(self) -> int:
        """Validator requests the rate limit turned away (attempts that are not in the log)."""
        return self._validator.refused if self._validator is not None else 0

    def start_validator(self, socket_path: Path) -> None:
        """Serve ``spec.validator`` on ``socket_path`` (a backend calls this in :meth:`start`).

        Nothing is served when the spec has no validator; the agent's ``validate_submission.sh``
        then answers with an error.
        """
        if self.spec.validator is None or self._validator is not None:
            return
        self._validator = ValidatorServer(
            socket_path, self.spec.validator, min_interval=self.spec.validator_interval
        )
        self._validator.start()

    def stop_validator(self) -> None:
        """Stop serving validation (a backend calls this in :meth:`stop`); safe to call twice."""
        if self._validator is not None:
            self._validator.stop()

    @property
    def build_calls(self) -> list[BuildCall]:
        """Calls the agent made to ``build_image.sh`` so far (kept after :meth:`stop`)."""
        return list(self._builder.calls) if self._builder is not None else []

    @property
    def build_refused(self) -> int:
        """Build requests the rate limit (or the size cap) turned away."""
        return self._builder.refused if self._builder is not None else 0

    def start_builder(self, socket_dir: Path) -> None:
        """Serve ``spec.builder`` in ``socket_dir`` with ``build_image.sh`` beside its socket
        (a backend that can build calls this in :meth:`start`; nothing without a builder)."""
        from pytest_mlebench.sandbox.build_endpoint import (
            CLIENT_NAME,
            CLIENT_SCRIPT,
            SCRIPT_NAME,
            SOCKET_NAME,
            build_script,
        )

        if self.spec.builder is None or self._builder is not None:
            return
        self._builder = BuildServer(
            socket_dir / SOCKET_NAME, self.spec.builder, min_interval=self.spec.builder_interval
        )
        self._builder.start()
        shutil.copyfile(CLIENT_SCRIPT, socket_dir / CLIENT_NAME)
        (socket_dir / CLIENT_NAME).chmod(0o644)
        script = socket_dir / SCRIPT_NAME
        script.write_text(build_script(f"{self.builder_dir}/{CLIENT_NAME}", self.python), "utf-8")
        script.chmod(0o755)

    @property
    def builder_dir(self) -> str:
        """The folder of ``build_image.sh`` and its socket, as the sandbox sees it."""
        return ""

    def stop_builder(self) -> None:
        """Stop serving builds (a backend calls this in :meth:`stop`); safe to call twice."""
        if self._builder is not None:
            self._builder.stop()

    def start_gateway(self, socket_path: Path) -> None:
        """Serve ``spec.gateway`` on ``socket_path`` and put the forwarder script beside it.

        A backend calls this in :meth:`start` (nothing happens without a gateway). Raises
        :class:`~pytest_mlebench.gateway.GatewayError` when the gateway cannot start.
        """
        from pytest_mlebench.gateway import FORWARDER_NAME, FORWARDER_SCRIPT

        if self.spec.gateway is None:
            return
        self.spec.gateway.start(socket_path)
        forwarder = socket_path.parent / FORWARDER_NAME
        shutil.copyfile(FORWARDER_SCRIPT, forwarder)
        forwarder.chmod(0o644)

    def stop_gateway(self) -> None:
        """Stop serving the gateway (a backend calls this in :meth:`stop`); safe to call twice."""
        if self.spec.gateway is not None:
            self.spec.gateway.stop()

    def with_gateway(self, command: Sequence[str], socket_dir: str, port: int = 0) -> list[str]:
        """``command`` wrapped in the gateway's forwarder (unchanged without a gateway).

        Args:
            command: The agent's command.
            socket_dir: The folder, *as the sandbox sees it*, holding the gateway's socket and
                the forwarder script.
            port: The ``localhost`` port to listen on (0: any free one; the agent learns it from
                ``OPENAI_BASE_URL``).
        """
        from pytest_mlebench.gateway import FORWARDER_NAME, SOCKET_NAME

        if self.spec.gateway is None or not self.spec.gateway.started:
            return list(command)
        forwarder = f"{socket_dir}/{FORWARDER_NAME}"
        socket = f"{socket_dir}/{SOCKET_NAME}"
        return [self.python, forwarder, "--socket", socket, "--port", str(port), "--", *command]

    def egress_summary(self) -> dict[str, Any] | None:
        """Attempts to reach the outside through an ``allow`` network's proxy (``None``: none)."""
        return None

    def gateway_env(self) -> dict[str, str]:
        """The run token in place of every provider key (empty without a gateway)."""
        if self.spec.gateway is None:
            return {}
        token = self.spec.gateway.token
        return {"OPENAI_API_KEY": token, "ANTHROPIC_API_KEY": token}

    def contract_env(self) -> dict[str, str]:
        """Environment variables every agent gets, pointing at the contract paths."""
        paths = self.paths
        return {
            "COMPETITION_ID": self.spec.competition_id,
            "MLEBENCH_SEED": str(self.spec.seed),
            "TIME_LIMIT_SECS": str(int(self.spec.time_limit)),
            "DATA_DIR": paths.data,
            "SUBMISSION_DIR": paths.submission,
            "LOGS_DIR": paths.logs,
            "CODE_DIR": paths.code,
            "AGENT_DIR": paths.agent,
            "INSTRUCTIONS_FILE": paths.instructions,
            "VALIDATE_SUBMISSION": paths.validate,
            **self.builder_env(),
            **self.workspace_env(),
        }

    def builder_env(self) -> dict[str, str]:
        """``BUILD_IMAGE`` (the client script) and its socket, with a builder (else nothing)."""
        from pytest_mlebench.sandbox.build_endpoint import SCRIPT_NAME, SOCKET_NAME

        if self.spec.builder is None or not self.builder_dir:
            return {}
        return {
            "BUILD_IMAGE": f"{self.builder_dir}/{SCRIPT_NAME}",
            "MLEBENCH_BUILD_SOCKET": f"{self.builder_dir}/{SOCKET_NAME}",
        }

    def workspace_env(self) -> dict[str, str]:
        """``spec.env``, plus ``WORK_DIR`` (substituted for ``{WORK_DIR}``) with a workspace."""
        if not self.spec.workspace:
            return dict(self.spec.env)
        work = self.paths.work
        env = {key: value.replace("{WORK_DIR}", work) for key, value in self.spec.env.items()}
        return {"WORK_DIR": work, **env}

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
