"""summary.json: layout, per-split numbers, per-competition runs, loading either file kind."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.records.run_record import append_record
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.summary_json import build_summary, load_summary, write_summary
from tests.report.builders import record

RECORDS = [
    record("alpha", 0, 0.95, splits=("lite", "smoke"), wall_seconds=12.5),
    record("alpha", 1, 0.5, splits=("lite", "smoke")),
    record("beta", 0, 0.4),
    record("beta", 1, 0.85, agent="other"),
    record("gamma", 0, outcome="skipped"),
]


def test_layout_per_agent_split_and_competition() -> None:
    summary = build_summary(merge_records(RECORDS), created_at="2026-01-01T00:00:00+00:00")
    assert summary["schema"] == "pytest-mlebench/summary/1"
    assert set(summary["agents"]) == {"dummy", "other"}
    dummy = summary["agents"]["dummy"]
    assert set(dummy["splits"]) == {"lite", "smoke"}
    assert dummy["overall"]["competitions"] == 2 and dummy["overall"]["not_run"] == 1
    assert dummy["splits"]["smoke"]["metrics"]["any_medal"]["per_seed"] == {"0": 100.0, "1": 0.0}
    assert dummy["splits"]["lite"]["metrics"]["any_medal"]["per_seed"] == {"0": 50.0, "1": 0.0}
    alpha = next(c for c in summary["competitions"] if c["competition_id"] == "alpha")
    assert [(r["seed"], r["score"], r["medal"], r["outcome"]) for r in alpha["runs"]] == [
        (0, 0.95, "gold", "passed"),
        (1, 0.5, None, "passed"),
    ]
    assert alpha["runs"][0]["wall_seconds"] == 12.5
    assert (alpha["medal_rate"], alpha["best_medal"], alpha["mean_score"]) == (50.0, "gold", 0.725)
    assert alpha["thresholds"]["gold_threshold"] == 0.9
    gamma = next(c for c in summary["competitions"] if c["competition_id"] == "gamma")
    assert (gamma["seeds_run"], gamma["not_run"], gamma["medal_rate"]) == (0, 1, None)


def test_write_then_load_returns_the_same_summary(tmp_path: Path) -> None:
    summary = build_summary(merge_records(RECORDS))
    path = write_summary(tmp_path / "out" / "summary.json", summary)
    assert load_summary(path) == json.loads(json.dumps(summary))


def test_load_summarises_a_results_file(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    for item in RECORDS:
        append_record(path, item)
    summary = load_summary(path)
    assert summary["merge"]["records_used"] == 5


def test_load_rejects_other_files(tmp_path: Path) -> None:
    other = tmp_path / "x.json"
    other.write_text('{"hello": 1}')
    with pytest.raises(ConfigError, match="neither a summary.json nor a results file"):
        load_summary(other)
    with pytest.raises(ConfigError, match="no such file"):
        load_summary(tmp_path / "missing.json")
