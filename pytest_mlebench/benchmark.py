"""The benchmark test. Import it into a test module to run competitions with pytest.

In this repository ``benchmarks/test_competitions.py`` does exactly that (and
``benchmarks/test_engineering.py`` for the engineering tasks); an agent's own project
does the same (or runs ``pytest --pyargs pytest_mlebench.benchmark``). See ``docs/usage.md``.

This module and ``fixtures/`` are the only places that know the tests' and fixtures' names: the
reports know a run by the ticket in its item's stash (:mod:`pytest_mlebench.handover`). An xdist
controller sees node ids only, never items; :func:`run_param` is where it learns which node ids
are runs of these tests. The run classes are imported for the annotations only, so the plugin's
entry point can ask :func:`run_param` without loading the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from pytest_mlebench.handover import RunKind
    from pytest_mlebench.run import CompetitionRun, EngineeringRun


def test_competition(mle_run: CompetitionRun) -> None:
    """Run the agent on one competition, grade its submission, and apply the medal gate."""
    record = mle_run.execute()
    if record.outcome == "failed":
        pytest.fail(record.reason or "the run did not reach the gate", pytrace=False)


def test_engineering_task(mle_task_run: EngineeringRun) -> None:
    """Run the agent on one engineering task, verify its workspace, and apply the gates."""
    record = mle_task_run.execute()
    if record.outcome == "failed":
        pytest.fail(record.reason or "the run did not pass its gate checks", pytrace=False)


_TESTS: dict[str, RunKind] = {
    test_competition.__name__: "competition",
    test_engineering_task.__name__: "engineering",
}


def run_param(nodeid: str) -> tuple[RunKind, str] | None:
    """(kind, parameter id) of a node id of one of these tests (``…::test_competition[toy-s1]``
    gives ``("competition", "toy-s1")``), ``None`` for any other test."""
    function = nodeid.rpartition("::")[2]
    name, bracket, param = function.partition("[")
    kind = _TESTS.get(name)
    if kind is None or not bracket or not param.endswith("]"):
        return None
    return kind, param[:-1]
