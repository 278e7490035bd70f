"""MLE-bench's own formats, made in this module only, so its tools can read what we grade.

* One grade report: mle-bench's 16 keys (plus our ``invalid_reason``), made from a
  :class:`~pytest_mlebench.records.grade_report.GradeReport` by :func:`mlebench_report`. ``mlebench
  grade-sample`` prints it and each run's ``grade.json`` holds it.
* ``grading_report.json`` — the aggregated grading report with the original's ``total_*`` keys
  and one report per run in ``competition_reports`` (:func:`grading_report` from run records,
  :func:`bulk_grading_report` from ``mlebench grade``'s grades).
* ``submission.jsonl`` — one line per run that happened: ``competition_id``, ``submission_path``
  (absolute, the kept ``submission.csv``), ``logs_path``, plus ``seed``, ``agent`` and ``run_id``
  (extra keys the original ignores). Regrade with ``mlebench grade --submission submission.jsonl
  --output-dir DIR``.

Skipped runs are not runs and appear in neither file.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.medals import MEDALS
from pytest_mlebench.records.grade_report import GradeReport
from pytest_mlebench.records.mlebench_grade import GRADE_KEYS, mlebench_report
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.timestamps import utc_timestamp

__all__ = [
    "bulk_grading_report",
    "grading_report",
    "submission_lines",
    "write_mlebench_files",
]


def submission_path(record: RunRecord) -> str:
    """Where the run's ``submission.csv`` was kept (it may not exist: no submission)."""
    return str(Path(record.run_dir) / "submission.csv") if record.run_dir else ""


def run_report(record: RunRecord) -> dict[str, Any]:
    """The run's report; a run that broke before grading gets one that reached nothing."""
    if record.grade is not None:
        return mlebench_report(record.grade)
    report: dict[str, Any] = {key: None for key in GRADE_KEYS}
    report.update(
        {key: False for key in GRADE_KEYS if key.endswith(("medal", "median", "submission"))}
    )
    report.update(
        competition_id=record.competition_id,
        submission_exists=False,
        created_at=record.finished_at,
        submission_path=submission_path(record),
    )
    return report


def aggregate_reports(reports: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """mle-bench's aggregated report: ``total_*`` counts plus the individual reports."""
    reports = list(reports)

    def count(key: str) -> int:
        return sum(1 for r in reports if r.get(key))

    return {
        "total_runs": len(reports),
        "total_runs_with_submissions": count("submission_exists"),
        "total_valid_submissions": count("valid_submission"),
        "total_medals": count("any_medal"),
        **{f"total_{m}_medals": count(f"{m}_medal") for m in MEDALS},
        "total_above_median": count("above_median"),
        "created_at": utc_timestamp(),
        "competition_reports": reports,
    }


def grading_report(records: Sequence[RunRecord]) -> dict[str, Any]:
    """MLE-bench's aggregated grading report of the runs that happened."""
    return aggregate_reports(run_report(r) for r in records if r.ran)


def bulk_grading_report(grades: Iterable[GradeReport]) -> dict[str, Any]:
    """MLE-bench's aggregated grading report of ``mlebench grade``'s submissions."""
    return aggregate_reports(mlebench_report(grade) for grade in grades)


def submission_lines(records: Sequence[RunRecord]) -> list[dict[str, Any]]:
    """The ``submission.jsonl`` entries of the runs that happened."""
    lines = []
    for record in records:
        if not record.ran:
            continue
        entry: dict[str, Any] = {
            "competition_id": record.competition_id,
            "submission_path": submission_path(record),
        }
        if record.run_dir:
            entry["logs_path"] = str(Path(record.run_dir) / "agent.log")
        entry.update(seed=record.seed, agent=record.agent, run_id=record.run_id)
        lines.append(entry)
    return lines


def write_mlebench_files(out_dir: Path, records: Sequence[RunRecord]) -> tuple[Path, Path]:
    """Write ``grading_report.json`` and ``submission.jsonl`` into ``out_dir``.

    Returns:
        The paths of the report and of the submission list.
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    report_path = out_dir / "grading_report.json"
    jsonl_path = out_dir / "submission.jsonl"
    write_atomically(report_path, json.dumps(grading_report(records), indent=2, allow_nan=False))
    lines = (json.dumps(entry, allow_nan=False) for entry in submission_lines(records))
    write_atomically(jsonl_path, "".join(line + "\n" for line in lines))
    return report_path, jsonl_path
