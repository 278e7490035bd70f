"""Files in MLE-bench's own formats, so its tools (and ``mlebench grade``) can read our runs.

* ``grading_report.json`` — the aggregated grading report with the original's ``total_*`` keys
  and one 16-key report per run in ``competition_reports``.
* ``submission.jsonl`` — one line per run that happened: ``competition_id``, ``submission_path``
  (absolute, the kept ``submission.csv``), ``logs_path``, plus ``seed``, ``agent`` and ``run_id``
  (extra keys the original ignores). Regrade with ``mlebench grade --submission submission.jsonl
  --output-dir DIR``.

Skipped runs are not runs and appear in neither file.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.bulk import aggregate_reports
from pytest_mlebench.grading import GradeReport
from pytest_mlebench.report.aggregate import ran
from pytest_mlebench.results import RunRecord

# mle-bench's 16 keys: every field of our report except the reason we add.
GRADE_KEYS = tuple(f.name for f in fields(GradeReport) if f.name != "invalid_reason")


def submission_path(record: RunRecord) -> str:
    """Where the run's ``submission.csv`` was kept (it may not exist: no submission)."""
    return str(Path(record.run_dir) / "submission.csv") if record.run_dir else ""


def grade_of(record: RunRecord) -> dict[str, Any]:
    """The run's 16-key report; a run that broke before grading gets one that reached nothing."""
    if record.grade is not None:
        return dict(record.grade)
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


def grading_report(records: Sequence[RunRecord]) -> dict[str, Any]:
    """MLE-bench's aggregated grading report of the runs that happened."""
    return aggregate_reports(grade_of(r) for r in records if ran(r))


def submission_lines(records: Sequence[RunRecord]) -> list[dict[str, Any]]:
    """The ``submission.jsonl`` entries of the runs that happened."""
    lines = []
    for record in records:
        if not ran(record):
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
