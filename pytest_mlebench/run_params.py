"""The runs a session can collect, as parametrisations of the benchmark tests.

One :class:`~pytest_mlebench.handover.RunTicket` per run (competitions × seeds, engineering tasks
× agents × seeds) with the marks users select on and the timeout backstop;
:func:`pytest_mlebench.session_plugin.pytest_generate_tests` parametrises with them. An xdist
controller never sees items, only the node ids its workers collected: :func:`tickets_by_nodeid`
gives it the same tickets for those, through the test module's own reading of its node ids
(:func:`pytest_mlebench.benchmark.run_param`).
"""

from __future__ import annotations

from collections.abc import Iterable

import pytest

from pytest_mlebench.agents.task_scripts import case_agents
from pytest_mlebench.benchmark import run_param
from pytest_mlebench.eng.task import EngTask
from pytest_mlebench.fixtures import CASE_PARAMETERS
from pytest_mlebench.handover import RunKind, RunTicket
from pytest_mlebench.known_issues import marks_of
from pytest_mlebench.registry import Competition
from pytest_mlebench.run.case import RunCase
from pytest_mlebench.session import MLEBenchSession
from pytest_mlebench.values.time_limit import TimeLimited, run_time_limit

TIMEOUT_GRACE_SECONDS = 600
# The backstop times the test body only (the run): a first run's setup may build the session's
# images or prepare a large competition for many minutes, which is not the run's time.
BACKSTOP: dict[str, object] = {"method": "signal", "func_only": True}


def run_tickets(
    mle_session: MLEBenchSession, kind: RunKind
) -> list[tuple[RunTicket, list[pytest.MarkDecorator]]]:
    """Every run of ``kind`` this session can collect (subjects × agents × seeds), with marks."""
    settings = mle_session.settings
    if kind == "competition":
        return [
            (
                ticket("competition", RunCase(competition.id, seed), competition, mle_session),
                marks_for(competition, settings.time_limit),
            )
            for competition in mle_session.registry
            for seed in range(settings.seeds)
        ]
    return [
        (
            ticket("engineering", RunCase(task.id, seed, agent, "engineering"), task, mle_session),
            task_marks(task, settings.time_limit),
        )
        for task in mle_session.tasks
        for agent in case_agents(mle_session.agent, task.folder)
        for seed in range(settings.seeds)
    ]


def ticket(
    kind: RunKind, case: RunCase, subject: TimeLimited, mle_session: MLEBenchSession
) -> RunTicket:
    settings = mle_session.settings
    limit = run_time_limit(settings.time_limit, subject)
    return RunTicket(kind, case, case.test_id(settings.seeds), limit)


def task_marks(task: EngTask, time_limit: int | None) -> list[pytest.MarkDecorator]:
    """The marks of an engineering task's test: ``engineering``, its splits, category and
    complexity, and the timeout backstop (agent + verifier + grace)."""
    backstop = run_time_limit(time_limit, task) + task.verify_time_limit + TIMEOUT_GRACE_SECONDS
    return [
        pytest.mark.engineering,
        pytest.mark.category(name=task.category),
        pytest.mark.complexity(level=task.complexity),
        *(getattr(pytest.mark, split) for split in sorted(task.splits)),
        pytest.mark.timeout(backstop, **BACKSTOP),
    ]


def marks_for(competition: Competition, time_limit: int | None) -> list[pytest.MarkDecorator]:
    """The marks of a competition's test: splits, source, modality, complexity, known issues
    (``leaky``, ``crowded``) and the timeout backstop."""
    marks = [
        pytest.mark.mlebench,
        pytest.mark.complexity(level=competition.complexity),
        getattr(pytest.mark, competition.source),
        getattr(pytest.mark, competition.modality),
        *(getattr(pytest.mark, split) for split in sorted(competition.splits)),
        *(getattr(pytest.mark, mark) for mark in marks_of(competition.known_issues)),
    ]
    backstop = run_time_limit(time_limit, competition) + TIMEOUT_GRACE_SECONDS
    marks.append(pytest.mark.timeout(backstop, **BACKSTOP))
    return marks


def tickets_by_nodeid(mle_session: MLEBenchSession, nodeids: Iterable[str]) -> dict[str, RunTicket]:
    """The tickets of the runs among ``nodeids`` (other tests are left out)."""
    table = {
        (found.kind, found.label): found
        for kind in CASE_PARAMETERS
        for found, _marks in run_tickets(mle_session, kind)
    }
    runs = {}
    for nodeid in nodeids:
        param = run_param(nodeid)
        if param is not None and param in table:
            runs[nodeid] = table[param]
    return runs
