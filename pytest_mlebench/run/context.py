"""What every run of a session shares: the session's facts for records, the LLM gateway, skips.

:func:`run_context` turns the session into the plain values every record carries;
:func:`subject_record` makes a record for a subject (a skip in a fixture too), naming the run's
own agent where it is not the session's; :func:`run_gateway` makes a run's LLM gateway.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from pytest_mlebench.agents.protocol import Agent
from pytest_mlebench.gateway import Budget, Gateway, load_price_table
from pytest_mlebench.records.build import RunContext, RunSubject, make_record
from pytest_mlebench.records.run_record import RunRecord, append_record
from pytest_mlebench.run.case import RunCase
from pytest_mlebench.sandbox.network import BRIDGE_WARNING
from pytest_mlebench.session import MLEBenchSession


def run_context(mle_session: MLEBenchSession, agent: str | None = None) -> RunContext:
    """The session's facts every record carries, as plain values; ``agent`` names the run's
    own agent where it is not the session's (``--mle-agent 'cheat:*'``)."""
    network = mle_session.network
    context = RunContext(
        session_id=mle_session.session_id,
        agent=mle_session.agent.name,
        worker=mle_session.worker,
        backend=mle_session.backend,
        network=str(network),
        network_mode=network.mode,
        bridge_warning=BRIDGE_WARNING,
        description=mle_session.settings.description,
    )
    return context if agent is None else replace(context, agent=agent)


def subject_record(
    mle_session: MLEBenchSession, subject: RunSubject, case: RunCase, **facts: Any
) -> RunRecord:
    """The record of a run of ``subject`` for ``case`` in ``mle_session`` (a skip too)."""
    context = run_context(mle_session, case.agent)
    return make_record(context, subject, seed=case.seed, **facts)


def record_skip(
    mle_session: MLEBenchSession, subject: RunSubject, case: RunCase, test_id: str, reason: str
) -> RunRecord:
    """Record that ``case`` was skipped before it ran (data not prepared, a missing tool)."""
    record = subject_record(
        mle_session, subject, case, test_id=test_id, outcome="skipped", reason=reason
    )
    append_record(mle_session.settings.results_path, record)
    return record


def run_gateway(agent: Agent, mle_session: MLEBenchSession, run_dir: Path) -> Gateway | None:
    """A run's LLM gateway when ``agent`` names providers (not started yet), its transcript in
    ``run_dir``."""
    config = getattr(agent, "gateway", None)
    if config is None or not config.providers:
        return None
    settings = mle_session.settings
    return Gateway(
        config.with_upstreams(dict(settings.gateway_upstreams)),
        load_price_table(settings.price_table),
        run_dir / "gateway.jsonl",
        budget=Budget(tokens=settings.token_budget, cost_usd=settings.cost_budget),
    )
