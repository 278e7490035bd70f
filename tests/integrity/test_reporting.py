"""Flags in the reports: summary.json, both medal rates, the terminal and the HTML page."""

from __future__ import annotations

import json

from pytest_mlebench.integrity.reporting import allure_tags, terminal_lines
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.records.verdict import Flag, IntegrityReport
from pytest_mlebench.report.html import render_html
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.summary_json import build_summary
from tests.report.builders import record

EDITOR = Flag("process", "editor", "high", "an editor ran", {"command": "vim sub.csv"})
NO_CODE = Flag("rules", "no-code", "medium", "no code", {})


def flagged(seed: int, *, withheld: bool) -> RunRecord:
    base = record("toy", seed, 0.99)
    report = IntegrityReport(
        mode="strict" if withheld else "report",
        flags=(EDITOR, NO_CODE),
        medal_withheld=withheld,
        earned_medal=base.grade.medal if base.grade else None,
    )
    return record("toy", seed, 0.99, integrity=report)


def test_withheld_medals_count_as_none_and_the_summary_gives_both_rates() -> None:
    records = [flagged(0, withheld=True), flagged(1, withheld=False)]
    assert all(r.grade and r.grade.medal for r in records)
    summary = build_summary(merge_records(records, 2))
    metrics = summary["agents"]["dummy"]["overall"]["metrics"]
    assert metrics["any_medal"]["mean"] == 50.0
    assert metrics["any_medal_before_integrity"]["mean"] == 100.0
    section = summary["integrity"]
    assert section["runs_flagged"] == 2 and section["medals_withheld"] == 1
    assert section["flags_by_kind"] == {"process": 2, "rules": 2}
    (entry,) = summary["competitions"]
    assert entry["runs"][0]["integrity"]["medal_withheld"] is True
    assert entry["runs"][0]["medal"] is None


def test_terminal_html_and_allure_show_the_flags() -> None:
    records = [flagged(0, withheld=True)]
    lines = terminal_lines(records, lambda r: r.test_id)
    assert lines[0].startswith("integrity: 1 of 1 runs flagged (1 medium, 1 high)")
    assert any("high process/editor: an editor ran (command vim sub.csv)" in line for line in lines)
    page = render_html(build_summary(merge_records(records, 1)))
    assert "<h2>Integrity</h2>" in page and "process/editor" in page and "withheld" in page
    assert allure_tags(records[0]) == [
        "integrity:process",
        "integrity:rules",
        "integrity:withheld",
    ]


def test_old_records_without_integrity_still_read() -> None:
    plain = record("toy", 0, 0.99)
    again = RunRecord.from_dict(json.loads(plain.to_json()))
    assert again.integrity is None
    full = flagged(0, withheld=True)
    assert RunRecord.from_dict(json.loads(full.to_json())) == full
