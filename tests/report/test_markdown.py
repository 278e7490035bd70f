"""``summary.md``: verdict, overall numbers, competitions, category profile; the step summary."""

from __future__ import annotations

from pathlib import Path

from pytest_mlebench.report.baseline_gate import run_gate
from pytest_mlebench.report.markdown import append_step_summary, render_markdown
from pytest_mlebench.report.markdown_table import cell, table
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.summary_json import build_summary
from tests.report.builders import record

BASE = build_summary(
    merge_records(
        [
            record("alpha", 0, 0.95, percentile=95.0),
            record("alpha", 1, 0.95, percentile=96.0),
            record("beta", 0, 0.6, percentile=50.0),
            record("beta", 1, 0.6, percentile=52.0),
        ]
    ),
    created_at="2026-01-01T00:00:00+00:00",
)
NEW = build_summary(
    merge_records(
        [
            record("alpha", 0, 0.6, percentile=40.0),
            record("alpha", 1, 0.6, percentile=41.0),
            record("beta", 0, 0.6, percentile=50.0),
            record("beta", 1, None, outcome="failed"),
            record("gamma", 0, outcome="skipped"),
        ]
    ),
    created_at="2026-01-02T00:00:00+00:00",
)


def test_without_a_baseline_there_is_no_gate_section() -> None:
    text = render_markdown(NEW)
    assert text.startswith("# MLE-bench summary\n\nAgents: dummy · created 2026-01-02T00:00:00")
    assert "## Gate" not in text
    assert "| dummy | 2 | 4 | 0.0 ± 0.0 % | 75.0 ± 25.0 % | 32.8 ± 12.2 |" in text
    assert "| alpha | s0 -, s1 - | 0.0 % | 40.5 | 0.6 |" in text
    # the invalid run counts as 0, and its cell names its class
    assert "| beta | s0 -, s1 invalid_submission | 0.0 % | 25.0 | 0.6 |" in text
    assert "dummy: failure classes: valid_no_medal 3, invalid_submission 1\n" in text
    assert "| gamma | s0 not run | - | - | - |" in text
    assert "| modality tabular | 0.0 | 32.8 |" in text


def test_the_verdict_comes_first_with_its_reason_and_numbers() -> None:
    gate = run_gate(BASE, NEW, baseline="main/summary.json")
    text = render_markdown(NEW, gate, BASE)
    assert text.index("## Gate: FAILED — regression") < text.index("## Overall")
    assert gate.reason.startswith("percentile dropped significantly: -40.5 points")
    assert f"paired gate against `main/summary.json`: {gate.reason}" in text
    header = (
        "| agent | matched runs | percentile change | medal flips | McNemar p | "
        "unmatched (baseline / new) | verdict |"
    )
    assert header in text
    change = gate.agents[0].result.percentile
    assert change is not None
    assert f"| dummy | 4 on 2 competitions | {change.estimate:+.1f} points" in text
    assert "| +0 / -2 | 0.5 | 0 / 0 | regression |" in text
    # the profile puts the baseline beside the session
    assert (
        "| category | dummy (baseline) medal % | dummy (baseline) percentile | dummy medal %"
        in (text)
    )


def test_a_rate_drop_gate_shows_its_checks_and_notes() -> None:
    old = build_summary(merge_records([record("alpha", 0, 0.95), record("beta", 0, 0.6)]))
    gate = run_gate(old, NEW, baseline="old.json")
    text = render_markdown(NEW, gate, old)
    assert "## Gate: FAILED\n" in text and "FAILED — failed" not in text
    assert "rate-drop gate against `old.json`: drop larger than 0 points" in text
    assert "| dummy | overall | any_medal | 50.0 % | 0.0 % | FAIL |" in text
    assert "- note: rate-drop gate: the baseline carries no leaderboard percentiles" in text


def test_a_gate_that_could_not_compare_says_why() -> None:
    text = render_markdown(NEW, gate_error="cannot read the baseline: b.json: no such file")
    assert "## Gate: FAILED\n\ncannot read the baseline: b.json: no such file" in text


def test_cells_escape_pipes_and_tables_have_a_rule() -> None:
    assert cell("a|b\nc") == "a\\|b c"
    assert table([["x", "y"], ["1", "2"]]) == ["| x | y |", "|---|---|", "| 1 | 2 |"]


def test_step_summary_is_appended_only_when_set(tmp_path: Path) -> None:
    assert append_step_summary("# x\n", {}) is None
    target = tmp_path / "step.md"
    target.write_text("earlier step\n")
    env = {"GITHUB_STEP_SUMMARY": str(target)}
    assert append_step_summary("# x", env) == target
    append_step_summary("# y\n", env)
    assert target.read_text() == "earlier step\n# x\n# y\n"
