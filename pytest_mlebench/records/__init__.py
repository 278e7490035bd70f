"""The record layer: what one run leaves behind, as values, and the run's files.

* :mod:`~pytest_mlebench.records.grade_report` — one submission's grade (score, validity, award,
  thresholds), from the grader to every report.
* :mod:`~pytest_mlebench.records.verdict` — the integrity verdict: flags and the report.
* :mod:`~pytest_mlebench.records.run_record` — the run record (grade + verdict + everything
  about the run), its JSON-lines file and :attr:`RunRecord.medal`, the medal that counts.
* :mod:`~pytest_mlebench.records.mlebench_grade` — one grade in mle-bench's 16-key form.
* :mod:`~pytest_mlebench.records.requirement` — the medal requirement (``--mle-require``).
* :mod:`~pytest_mlebench.records.build` — a run's record made from plain facts, and the files
  the run keeps (``grade.json``, ``record.json``, the results line).

Nothing here imports a layer above (sandbox, features, settings, run, reports): facts from
there arrive as plain values or through the small protocols of ``build``.
"""

from __future__ import annotations

from pytest_mlebench.records.grade_report import GradeReport
from pytest_mlebench.records.run_record import Outcome, RunRecord, append_record, read_records
from pytest_mlebench.records.verdict import Flag, IntegrityReport

__all__ = [
    "Flag",
    "GradeReport",
    "IntegrityReport",
    "Outcome",
    "RunRecord",
    "append_record",
    "read_records",
]
