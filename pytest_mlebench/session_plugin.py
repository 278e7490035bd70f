"""The plugin's hooks for a session that uses it: registered by :mod:`pytest_mlebench.activation`.

:mod:`pytest_mlebench.plugin` (the ``pytest11`` entry point) loads this module only when the
session asks for the plugin (an ``--mle-*`` setting given, ``--markers``) or collects its
benchmark test; a session that uses nothing of it never imports it. A benchmark test asks,
through its fixtures, for a kind's case fixture (``fixtures.CASE_PARAMETERS`` names them);
:func:`pytest_generate_tests` parametrises it with the :class:`~pytest_mlebench.handover.RunTicket`
of each run (``registry × seeds``, tasks × agents × seeds) and the marks users select on
(``-m lite``, ``-m embedded``, ``-m "complexity(level='low')"``, a modality such as ``-m image``),
and :func:`pytest_itemcollected` files each item's ticket in its stash for the reports.
"""

from __future__ import annotations

from dataclasses import asdict
from functools import partial
from typing import Any

import pytest

from pytest_mlebench.benchmark import run_param
from pytest_mlebench.checkpoint.resume_hooks import install_resume
from pytest_mlebench.eng.task_registry import load_eng_registry
from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.fixtures import CASE_PARAMETERS
from pytest_mlebench.handover import case_of, stash_case
from pytest_mlebench.markers import FIXED_MARKERS
from pytest_mlebench.registry import load_registry
from pytest_mlebench.report import hooks as report_hooks
from pytest_mlebench.rerun_series import settings_for_rerun
from pytest_mlebench.run_params import run_tickets, tickets_by_nodeid
from pytest_mlebench.sandbox.network import BRIDGE_WARNING
from pytest_mlebench.sandbox_plan import SandboxPlan, finish_sandboxes, plan_sandboxes
from pytest_mlebench.selection import (
    SelectionCount,
    empty_selection_lines,
    marker_names,
)
from pytest_mlebench.session import (
    SESSION_KEY,
    MLEBenchSession,
    get_session,
    resolve_agent,
    resolve_integrity,
)
from pytest_mlebench.session_notes import available_text, seeds_text
from pytest_mlebench.settings import resolve_settings
from pytest_mlebench.summary import terminal_lines

pytest_plugins = [
    "pytest_mlebench.fixtures.benchmark",
    "pytest_mlebench.fixtures.engineering",
    "pytest_mlebench.session_notes",
]

SELECTION_OUTPUT_KEY = "mle_selection"


def configure_session(config: pytest.Config, session_id: str, *, late: bool) -> None:
    """Resolve the settings, registry, agent and integrity once and keep the session in
    ``config.stash``; ``late``: the session started before the plugin was asked for (its
    benchmark test was collected), so the sandbox plan is made now rather than at session
    start (on an xdist worker too when its controller handed none)."""
    try:
        settings, _ = settings_for_rerun(config, resolve_settings(config), names_a_run)
        registry = load_registry(settings.competitions_dirs)
        tasks = load_eng_registry(settings.engineering_dirs)
        agent = resolve_agent(config, settings)
        integrity = resolve_integrity(settings, agent)
    except MLEBenchError as exc:
        raise pytest.UsageError(str(exc)) from None
    for split in registry.splits:
        if split not in FIXED_MARKERS:
            config.addinivalue_line("markers", f"{split}: competition in the {split} split")
    for split in tasks.splits:
        if split not in FIXED_MARKERS and split not in registry.splits:
            config.addinivalue_line("markers", f"{split}: engineering task in the {split} split")
    mle_session = MLEBenchSession(
        settings=settings,
        registry=registry,
        agent=agent,
        integrity=integrity,
        tasks=tasks,
        session_id=session_id,
    )
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is not None:
        mle_session.worker = str(workerinput["workerid"])
        if "mle_plan" in workerinput:
            mle_session.plan = SandboxPlan.from_json(workerinput["mle_plan"])
    config.stash[SESSION_KEY] = mle_session
    report_hooks.install(config, mle_session, partial(tickets_by_nodeid, mle_session))
    install_resume(config, mle_session)
    if late and (workerinput is None or "mle_plan" not in workerinput):
        _plan(mle_session)


def names_a_run(nodeid: str) -> bool:
    """Whether ``nodeid`` is a benchmark run's (the test module reads its own node ids)."""
    return run_param(nodeid) is not None


def plan_json(config: pytest.Config) -> dict[str, Any]:
    """The sandbox plan the xdist controller hands to each worker."""
    return get_session(config).plan.to_json()


def pytest_sessionstart(session: pytest.Session) -> None:
    """Controller: resolve the backend and GPUs once (workers receive the plan)."""
    config = session.config
    mle_session = get_session(config)
    if mle_session.is_controller:
        _plan(mle_session)


def _plan(mle_session: MLEBenchSession) -> None:
    try:
        mle_session.plan = plan_sandboxes(mle_session.settings, mle_session.session_id)
    except MLEBenchError as exc:
        raise pytest.UsageError(str(exc)) from None


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Controller: remove containers of crashed workers of this session."""
    mle_session = get_session(session.config)
    if mle_session.is_controller:
        finish_sandboxes(mle_session.plan, mle_session.session_id)


def pytest_report_header(config: pytest.Config) -> list[str]:
    mle_session = get_session(config)
    settings = mle_session.settings
    lines = [
        f"mlebench: agent {mle_session.agent.name}, sandbox {mle_session.backend} "
        f"(requested {settings.sandbox}), {available_text(len(mle_session.registry))}, "
        f"{seeds_text(settings.seeds)}, gate {settings.require}",
        f"mlebench: data {settings.data_dir}, results {settings.results_path}",
    ]
    if mle_session.plan.gpus:
        lines.append(f"mlebench: GPUs to lend {', '.join(mle_session.plan.gpus)}")
    notices = [
        *mle_session.plan.notices,
        *network_notices(mle_session),
        *image_notices(mle_session),
    ]
    return lines + [f"mlebench WARNING: {notice}" for notice in notices]


def network_notices(mle_session: MLEBenchSession) -> list[str]:
    """The warning ``bridge`` earns (the sandbox is not isolated)."""
    return [BRIDGE_WARNING] if mle_session.network.mode == "bridge" else []


def image_notices(mle_session: MLEBenchSession) -> list[str]:
    """An agent Dockerfile has no effect on the local backend: say so once, in the header."""
    if mle_session.backend != "local" or getattr(mle_session.agent, "image", None) is None:
        return []
    return [
        f"agent {mle_session.agent.name}'s Dockerfile is ignored with the local backend "
        "(it runs with this machine's Python); use --mle-sandbox docker to run its image"
    ]


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """Parametrise a test that asks for a kind's case fixture (``fixtures.CASE_PARAMETERS``)
    with that kind's tickets, each with its marks."""
    for kind, argname in CASE_PARAMETERS.items():
        if argname in metafunc.fixturenames:
            params = [
                pytest.param(ticket, id=ticket.label, marks=marks)
                for ticket, marks in run_tickets(get_session(metafunc.config), kind)
            ]
            metafunc.parametrize(argname, params, indirect=True)


def pytest_itemcollected(item: pytest.Item) -> None:
    """A benchmark test's ticket goes into its item's stash as the item is collected."""
    stash_case(item)


@pytest.hookimpl(wrapper=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> Any:
    """Count the benchmark tests before and after ``-m`` / ``-k`` (workers tell the controller)."""
    collected = count_runs(items)
    result = yield
    count = SelectionCount(collected, count_runs(items), len(items))
    get_session(config).selection = count
    workeroutput: dict[str, Any] | None = getattr(config, "workeroutput", None)
    if workeroutput is not None:
        workeroutput[SELECTION_OUTPUT_KEY] = asdict(count)
    return result


def count_runs(items: list[pytest.Item]) -> int:
    """How many of ``items`` are benchmark runs (they hold a ticket)."""
    return sum(1 for item in items if case_of(item) is not None)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node: Any, error: Any) -> None:
    """xdist controller: take the selection counts a worker reported."""
    reported = getattr(node, "workeroutput", {}).get(SELECTION_OUTPUT_KEY)
    if reported is None:
        return
    mle_session = get_session(node.config)
    count = SelectionCount(**reported)
    mle_session.selection = (
        count if mle_session.selection is None else mle_session.selection.merged(count)
    )


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    mle_session = get_session(config)
    if not mle_session.is_controller:
        return
    empty = _empty_selection_lines(config, mle_session)
    if empty:
        terminalreporter.write_sep("=", "mlebench: no competition selected", yellow=True)
        for line in empty:
            terminalreporter.write_line(f"mlebench: {line}", yellow=True)
    records = report_hooks.session_records(config)
    labels = report_hooks.run_labels(config)
    lines = terminal_lines(mle_session, records, labels) + report_hooks.terminal_lines(config)
    if not lines:
        return
    terminalreporter.write_sep("=", "mlebench results")
    for line in lines:
        terminalreporter.write_line(line)
    alarm = report_hooks.alarm_line(config)
    if alarm is not None:
        terminalreporter.write_line(alarm, red=True, bold=True)


def _empty_selection_lines(config: pytest.Config, mle_session: MLEBenchSession) -> list[str]:
    if mle_session.selection is None or not mle_session.selection.emptied:
        return []
    return empty_selection_lines(
        mle_session.registry,
        markexpr=config.getoption("markexpr", "") or "",
        keywordexpr=config.getoption("keyword", "") or "",
        marker_names=marker_names(config.getini("markers")),
        competitions_dirs=mle_session.settings.competitions_dirs,
    )
