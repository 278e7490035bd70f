"""MLE-bench's aggregated report and submission.jsonl from run records."""

from __future__ import annotations

import json
from pathlib import Path

from pytest_mlebench.bulk import read_submission_list
from pytest_mlebench.records.mlebench_grade import GRADE_KEYS
from pytest_mlebench.report.mlebench_compat import write_mlebench_files
from tests.report.builders import record

TOTAL_KEYS = {
    "total_runs", "total_runs_with_submissions", "total_valid_submissions", "total_medals",
    "total_gold_medals", "total_silver_medals", "total_bronze_medals", "total_above_median",
    "competition_reports",
}  # fmt: skip


def test_report_has_the_original_keys_and_skips_runs_that_did_not_happen(tmp_path: Path) -> None:
    records = [
        record("alpha", 0, 0.95, run_dir=str(tmp_path / "runs" / "a0")),
        record("alpha", 1, None, outcome="failed", run_dir=str(tmp_path / "runs" / "a1")),
        record("beta", 0, outcome="error", graded=False, run_dir=str(tmp_path / "runs" / "b0")),
        record("gamma", 0, outcome="skipped"),
    ]
    report_path, jsonl_path = write_mlebench_files(tmp_path / "mlebench", records)
    report = json.loads(report_path.read_text())
    assert set(report) >= TOTAL_KEYS
    assert report["total_runs"] == 3
    assert report["total_valid_submissions"] == 1
    assert report["total_medals"] == report["total_gold_medals"] == 1
    assert report["total_runs_with_submissions"] == 2
    for single in report["competition_reports"]:
        assert set(GRADE_KEYS) <= set(single)
    broken = report["competition_reports"][2]
    assert broken["competition_id"] == "beta" and broken["any_medal"] is False
    assert broken["submission_path"] == str(tmp_path / "runs" / "b0" / "submission.csv")
    lines = [json.loads(line) for line in jsonl_path.read_text().splitlines()]
    assert [(e["competition_id"], e["seed"]) for e in lines] == [
        ("alpha", 0),
        ("alpha", 1),
        ("beta", 0),
    ]
    assert lines[0]["submission_path"] == str(tmp_path / "runs" / "a0" / "submission.csv")
    assert lines[0]["logs_path"].endswith("agent.log")
    entries = read_submission_list(jsonl_path).entries  # what `mlebench grade` reads
    assert entries[0].submission_path == tmp_path / "runs" / "a0" / "submission.csv"
