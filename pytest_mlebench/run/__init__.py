"""One run of a benchmark test: one skeleton, a kind per track.

* :mod:`~pytest_mlebench.run.skeleton` — :class:`Run`, the steps every run walks through (id
  and folder, spec and job, the executor call, the record, its write and hand-over).
* :mod:`~pytest_mlebench.run.competition` — :class:`CompetitionRun`: the validator, the grade,
  the integrity checks, the medal gate.
* :mod:`~pytest_mlebench.run.engineering` — :class:`EngineeringRun`: the workspace, the
  verifier, the harness checks (:mod:`~pytest_mlebench.run.harness_checks`), the score.
* :mod:`~pytest_mlebench.run.subject`, :mod:`~pytest_mlebench.run.judgement` — what a run is of,
  and what its kind makes of it.
* :mod:`~pytest_mlebench.run.case` — :class:`RunCase`, a test's subject, kind and seed.
* :mod:`~pytest_mlebench.run.context` — the session's facts for records, skips, the gateway.
* :mod:`~pytest_mlebench.run.session_start` — the executor started once before the runs.
"""

from __future__ import annotations

from pytest_mlebench.run.case import RunCase
from pytest_mlebench.run.competition import CompetitionRun
from pytest_mlebench.run.engineering import EngineeringRun
from pytest_mlebench.run.judgement import Judgement
from pytest_mlebench.run.skeleton import Run

__all__ = ["CompetitionRun", "EngineeringRun", "Judgement", "Run", "RunCase"]
