"""The report pipeline: records → one SessionReport (typed summary) → each writer in turn."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.report.pipeline import (
    compare_with_baseline,
    publish,
    report_from_records,
    report_from_summary,
)
from pytest_mlebench.report.session_report import GateSettings, Summary
from pytest_mlebench.report.summary_json import write_summary
from pytest_mlebench.report.writers import MemoryWriter, SummaryFileWriter
from tests.report.builders import record


def test_the_summary_is_built_once_and_every_writer_gets_the_same_report(tmp_path: Path) -> None:
    records = [
        record("alpha", 0, 0.95, session_id="s1"),
        record("beta", 0, 0.5, session_id="s1"),
        record("beta", 0, 0.85, session_id="s2", finished_at="2026-01-02T10:00:00+00:00"),
        record("gamma", 0, outcome="skipped"),
    ]
    report = report_from_records(records, tmp_path, sources=["a.jsonl", "b.jsonl"], seeds=1)
    first, second = MemoryWriter(lines=["first"]), MemoryWriter(lines=["second"])
    assert publish(report, [first, second]) == ["first", "second"]
    assert first.reports == second.reports == [report]
    summary = report.summary
    assert (summary.runs, summary.not_run, summary.agents) == (
        2,
        1,
        ("dummy",),
    )  # beta merged to one run
    assert summary.sessions == ("s1", "s2") and summary.sources == ("a.jsonl", "b.jsonl")
    assert summary["agents"]["dummy"]["overall"]["runs"] == 2  # the documented layout, whole
    assert report.merge_findings == (
        "duplicate beta seed 0 (dummy): kept beta-s0-dummy-s2, superseded beta-s0-dummy-s1",
    )
    with pytest.raises(TypeError):
        summary.layout["agents"] = {}  # type: ignore[index]
    assert first.summaries()[0]["competitions"][1]["runs"][0]["medal"] == "silver"


def test_a_summary_read_as_it_is_is_not_written_again(tmp_path: Path) -> None:
    built = report_from_records([record("alpha", 0, 0.95)], tmp_path, sources=["r.jsonl"])
    path = write_summary(tmp_path / "saved.json", built.summary.to_dict())
    read = report_from_summary(path, tmp_path / "out")
    assert not read.built and read.summary == built.summary
    assert SummaryFileWriter().write(read) == []
    assert not (tmp_path / "out").exists()


def test_the_gate_verdict_and_an_unreadable_baseline(tmp_path: Path) -> None:
    base = report_from_records([record("alpha", 0, 0.95)], tmp_path, sources=["base.jsonl"])
    path = write_summary(tmp_path / "base.json", base.summary.to_dict())
    new = report_from_records([record("alpha", 0, 0.5)], tmp_path, sources=["new.jsonl"])
    judged = compare_with_baseline(new, path, "base.json", GateSettings(mode="rate-drop"))
    assert judged.gate is not None and not judged.gate.ok and judged.gate_failed
    assert isinstance(judged.baseline, Summary) and judged.baseline.runs == 1
    missing = compare_with_baseline(new, tmp_path / "nope.json", "nope.json", GateSettings())
    assert missing.gate is None and missing.gate_failed
    assert missing.gate_error == f"cannot read the baseline: {tmp_path / 'nope.json'}: no such file"
