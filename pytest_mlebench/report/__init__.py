"""Reports of benchmark sessions: summary.json, mle-bench files, Allure, HTML, CI gate, reruns.

Pure cores (:mod:`~pytest_mlebench.report.aggregate`, :mod:`~pytest_mlebench.report.merge`,
:mod:`~pytest_mlebench.report.compare`, :mod:`~pytest_mlebench.report.paired_comparison`,
:mod:`~pytest_mlebench.report.baseline_gate`, :mod:`~pytest_mlebench.report.rerun`) do the
arithmetic over plain records. One pipeline (:mod:`~pytest_mlebench.report.pipeline`) turns
records into a :class:`~pytest_mlebench.report.session_report.SessionReport` and hands it to the
writers (:mod:`~pytest_mlebench.report.writers`); the session end and ``mlebench report`` both
drive it. ``docs/reports.md`` describes every file written.
"""

from __future__ import annotations

from pytest_mlebench.report.aggregate import mean_sem, pass_at_k
from pytest_mlebench.report.baseline_gate import run_gate
from pytest_mlebench.report.compare import compare_summaries
from pytest_mlebench.report.merge import merge_files, merge_records
from pytest_mlebench.report.summary_json import build_summary, load_summary

__all__ = [
    "build_summary",
    "compare_summaries",
    "load_summary",
    "mean_sem",
    "merge_files",
    "merge_records",
    "pass_at_k",
    "run_gate",
]
