"""Hooks users implement in a conftest to extend the harness instead of forking it.

``tests/plugin/test_plugin.py`` runs each of them from a user's conftest on an example project.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from pytest_mlebench.agents.protocol import Agent
    from pytest_mlebench.records.run_record import RunRecord
    from pytest_mlebench.report.writers import ReportWriter
    from pytest_mlebench.sandbox.interface import Sandbox, SandboxSpec
    from pytest_mlebench.settings import Settings


@pytest.hookspec(firstresult=True)
def pytest_mlebench_make_sandbox(
    spec: SandboxSpec, backend: str, settings: Settings
) -> Sandbox | None:
    """Create (do not start) the sandbox for one run.

    Return a :class:`~pytest_mlebench.sandbox.interface.Sandbox` to replace the built-in backends,
    or ``None`` to let the next implementation decide. ``backend`` is the resolved backend name.
    The run record names the returned sandbox's ``backend`` and ``isolated`` class attributes;
    prove the backend with :mod:`pytest_mlebench.sandbox.conformance` (``docs/sandbox.md``).
    """


@pytest.hookspec(firstresult=True)
def pytest_mlebench_make_agent(name: str, settings: Settings) -> Agent | None:
    """Create the agent named by ``--mle-agent``; ``None`` lets the built-in lookup decide.

    Asked once per process (controller and each xdist worker) in ``pytest_configure``, before any
    test is collected; the returned agent's ``name`` is what records show.
    """


@pytest.hookspec
def pytest_mlebench_graded(record: RunRecord) -> None:
    """Called on the process that ran it with each finished run's record, before it is written.

    ``record.grade`` is the run's :class:`~pytest_mlebench.records.grade_report.GradeReport`
    (``None`` when the run broke before grading): ``record.grade.medal``, ``record.grade.score``, …
    """


@pytest.hookspec
def pytest_mlebench_update_environment(environment: dict[str, Any]) -> None:
    """Add, change or remove entries of the run environment written to reports.

    ``environment`` maps names (``agent``, ``sandbox.backend``, ``version.pytest``, …) to values;
    it becomes Allure's ``environment.properties``. Called once per session on the controller,
    when ``--alluredir`` is given, after the harness has filled in its own entries.
    """


@pytest.hookspec
def pytest_mlebench_report_writers(config: pytest.Config) -> list[ReportWriter]:
    """More report formats for the session end: writers run after the built-in ones.

    Each writer has ``write(report) -> list[str]``
    (:class:`~pytest_mlebench.report.writers.ReportWriter`): it gets the finished
    :class:`~pytest_mlebench.report.session_report.SessionReport` (the typed summary, the
    records, the gate's verdict, the output folder) and returns lines for the terminal. Called
    once per session on the controller, only when a run happened (``docs/reports.md``).
    """
    return []
