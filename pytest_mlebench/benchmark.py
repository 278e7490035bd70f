"""The benchmark test. Import it into a test module to run competitions with pytest.

In this repository ``benchmarks/test_competitions.py`` does exactly that (and
``benchmarks/test_engineering.py`` for the engineering tasks); an agent's own project
does the same (or runs ``pytest --pyargs pytest_mlebench.benchmark``). See ``docs/usage.md``.
"""

from __future__ import annotations

import pytest

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
