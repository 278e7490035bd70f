"""Run state of one pytest session, kept in ``config.stash`` (never on private attributes).

Also the one place the agent is resolved: :func:`resolve_agent` runs once per process in
``pytest_configure``, so an unknown ``--mle-agent`` stops the session before any test runs; so does
:func:`resolve_integrity` (the integrity settings as the checks take them, a missing judge key).
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any

import pytest

from pytest_mlebench.agents import Agent, load_agent
from pytest_mlebench.checkpoint.resume_plan import ResumePlan
from pytest_mlebench.eng.task_registry import EngRegistry
from pytest_mlebench.errors import AgentError, SettingError
from pytest_mlebench.integrity.monitor import IntegrityOptions, integrity_options
from pytest_mlebench.registry import Registry
from pytest_mlebench.sandbox.interface import Sandbox, SandboxSpec
from pytest_mlebench.sandbox_phase import Executor
from pytest_mlebench.sandbox_plan import SandboxPlan, executor_for
from pytest_mlebench.selection import SelectionCount
from pytest_mlebench.settings import Settings, source_of
from pytest_mlebench.values.network_policy import NetworkPolicy, parse_network


@dataclass
class MLEBenchSession:
    """What the controller decided once and every xdist worker shares.

    Attributes:
        settings: The resolved settings.
        registry: The competitions of this session.
        agent: The agent every run of this process uses (:func:`resolve_agent`).
        integrity: The integrity settings as plain values (:func:`resolve_integrity`).
        session_id: Id shared by the controller and its workers; stamped on every record.
        plan: The controller's sandbox decisions (backend, image, GPUs), shared with workers.
        worker: ``master`` on the controller, else the xdist worker id.
        selection: Benchmark tests before and after ``-m`` / ``-k`` (on the controller under
            xdist: as its workers reported them); ``None`` until collection ends.
        tasks: The engineering tasks of this session (``docs/engineering.md``).
        resume: The dead session's runs this one resumes (``--mle-resume``); ``None``: none.
    """

    settings: Settings
    registry: Registry
    agent: Agent
    integrity: IntegrityOptions
    session_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    plan: SandboxPlan = field(default_factory=lambda: SandboxPlan(backend="local"))
    worker: str = "master"
    selection: SelectionCount | None = None
    tasks: EngRegistry = field(default_factory=EngRegistry)
    resume: ResumePlan | None = None

    @property
    def is_controller(self) -> bool:
        return self.worker == "master"

    @property
    def network(self) -> NetworkPolicy:
        """The runs' network: ``--mle-network``, else the agent config's ``network:``, else none."""
        spelled = self.settings.network or getattr(self.agent, "network", None) or "none"
        return parse_network(spelled)

    @property
    def backend(self) -> str:
        """The sandbox backend actually used (``auto`` resolved once, by the controller)."""
        return self.plan.backend

    def executor(self, hook: Any) -> Executor:
        """The executor of this process's runs, as the plan picked it; on this machine it asks
        ``hook.pytest_mlebench_make_sandbox`` (``config.hook``) for each sandbox first."""

        def make_sandbox(spec: SandboxSpec) -> Sandbox | None:
            made: Sandbox | None = hook.pytest_mlebench_make_sandbox(
                spec=spec, backend=self.plan.backend, settings=self.settings
            )
            return made

        return executor_for(self.plan, self.session_id, make_sandbox)


SESSION_KEY = pytest.StashKey[MLEBenchSession]()


def get_session(config: pytest.Config) -> MLEBenchSession:
    return config.stash[SESSION_KEY]


def resolve_agent(config: pytest.Config, settings: Settings) -> Agent:
    """The agent named by ``--mle-agent``: a ``pytest_mlebench_make_agent`` hook's, else a
    built-in or an agent folder; :class:`SettingError` naming where the name came from if none."""
    made: Agent | None = config.hook.pytest_mlebench_make_agent(
        name=settings.agent, settings=settings
    )
    if made is not None:
        return made
    try:
        return load_agent(settings.agent, price_table=settings.price_table)
    except AgentError as exc:
        source = source_of(config, "agent")
        raise SettingError(f"invalid agent {settings.agent!r} from {source}: {exc}") from None


def resolve_integrity(settings: Settings, agent: Agent) -> IntegrityOptions:
    """The integrity settings of the session for the checks (policy loaded, judge set up once)."""
    return integrity_options(
        policy_file=settings.integrity_policy,
        similarity=settings.similarity,
        mode=settings.integrity,
        references=settings.references,
        judge_model=settings.judge,
        agent=agent,
        upstreams=dict(settings.gateway_upstreams),
        price_table=settings.price_table,
        network=settings.network,
        data_dir=settings.data_dir,
    )
