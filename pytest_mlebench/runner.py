"""Former home of the competition run; kept as aliases while other branches move to :mod:`.run`.

:class:`BenchmarkRun` is :class:`~pytest_mlebench.run.competition.CompetitionRun`; remove this
module once nothing imports it.
"""

from __future__ import annotations

from pytest_mlebench.run.case import RunCase
from pytest_mlebench.run.competition import CompetitionRun
from pytest_mlebench.run.context import run_context, run_gateway

BenchmarkRun = CompetitionRun

__all__ = ["BenchmarkRun", "RunCase", "run_context", "run_gateway"]
