"""The CI gate: drops beyond --max-drop fail; per-competition improvements and regressions."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.compare import compare_summaries, comparison_lines, verdict
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.summary_json import build_summary
from tests.report.builders import record


def summary(records: list[RunRecord]) -> dict[str, Any]:
    return build_summary(merge_records(records))


# Baseline: alpha gold, beta bronze, gamma no medal -> any medal 66.7 %, valid 100 %.
BASE = summary([record("alpha", 0, 0.95), record("beta", 0, 0.75), record("gamma", 0, 0.6)])
# New: alpha gold, beta no medal, gamma bronze -> 66.7 %, same rate, but beta regressed.
SAME_RATE = summary([record("alpha", 0, 0.95), record("beta", 0, 0.6), record("gamma", 0, 0.75)])
# Worse: only alpha medals, gamma invalid -> any medal 33.3 % (-33.3), valid 66.7 % (-33.3).
WORSE = summary(
    [record("alpha", 0, 0.95), record("beta", 0, 0.6), record("gamma", 0, None, outcome="failed")]
)


def test_equal_rates_pass_and_the_table_names_what_moved() -> None:
    comparison = compare_summaries(BASE, SAME_RATE, max_drop=0)
    assert comparison.ok
    verdicts = {c.competition_id: c.verdict for c in comparison.changes}
    assert verdicts == {"alpha": "same", "beta": "regressed", "gamma": "improved"}
    lines = comparison_lines(comparison, "base.json")
    assert lines[-1] == "gate passed"
    assert any(line.strip().startswith("beta") and "regressed" in line for line in lines)
    assert any(line.strip().startswith("gamma") and "improved" in line for line in lines)


@pytest.mark.parametrize(("max_drop", "ok"), [(0, False), (33.0, False), (33.4, True), (50, True)])
def test_a_drop_fails_only_beyond_the_allowance(max_drop: float, ok: bool) -> None:
    comparison = compare_summaries(BASE, WORSE, max_drop=max_drop)
    assert comparison.ok is ok
    drops = {(c.group, c.metric): round(c.drop, 1) for c in comparison.checks}
    assert drops[("overall", "any_medal")] == 33.3
    assert drops[("overall", "valid_submission")] == 33.3
    assert drops[("split lite", "any_medal")] == 33.3
    if not ok:
        assert comparison_lines(comparison, "b")[-1].startswith("GATE FAILED: drop larger than")


def test_an_improvement_never_fails() -> None:
    assert compare_summaries(WORSE, BASE, max_drop=0).ok


def test_single_agents_with_different_names_are_compared() -> None:
    renamed = summary([record("alpha", 0, 0.95, agent="aide")])
    comparison = compare_summaries(BASE, renamed, max_drop=100)
    assert comparison.ok
    assert "comparing agent aide with baseline agent dummy" in comparison.notes


def test_nothing_in_common_fails() -> None:
    two = summary([record("alpha", 0, agent="a"), record("alpha", 0, agent="b")])
    comparison = compare_summaries(BASE, two, max_drop=100)
    assert not comparison.ok
    assert (
        comparison_lines(comparison, "b")[-1] == "GATE FAILED: nothing to compare with the baseline"
    )


@pytest.mark.parametrize(
    ("base", "new", "expected"),
    [
        ({"medal_rate": 0, "valid_rate": 100}, {"medal_rate": 50, "valid_rate": 50}, "improved"),
        ({"medal_rate": 50, "valid_rate": 50}, {"medal_rate": 50, "valid_rate": 100}, "improved"),
        ({"medal_rate": 0, "mean_score": 0.4}, {"medal_rate": 0, "mean_score": 0.5}, "improved"),
        (
            {"medal_rate": 0, "mean_score": 0.4},
            {"medal_rate": 0, "mean_score": 0.5, "is_lower_better": True},
            "regressed",
        ),
        ({"medal_rate": 100, "mean_score": 0.9}, {"medal_rate": 100, "mean_score": 0.9}, "same"),
        ({"medal_rate": None}, {"medal_rate": 0}, "same"),
    ],
)
def test_verdict(base: dict[str, Any], new: dict[str, Any], expected: str) -> None:
    assert verdict(base, new) == expected
