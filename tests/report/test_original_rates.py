"""Both any-medal rates, ours and the original MLE-bench's, shown where they differ."""

from __future__ import annotations

from dataclasses import replace

from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.html import render_html
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.original_rates import medal_rates
from pytest_mlebench.report.summary_json import build_summary
from pytest_mlebench.report.terminal import medal_table
from tests.report.builders import record

NINE = "mean-column-roc-auc over 9 columns"


def _graded_otherwise(base: RunRecord, original_score: float | None) -> RunRecord:
    assert base.grade is not None
    return replace(base, grade=base.grade.with_original(NINE, original_score))


def _runs() -> list[RunRecord]:
    """Four runs: ranzcr earns nothing here but gold in the original; the rest agree."""
    return [
        _graded_otherwise(record("ranzcr", 0, score=0.6), 0.95),
        _graded_otherwise(record("ranzcr", 1, score=0.6), 0.6),
        record("digits", 0, score=0.95),
        record("digits", 1, score=0.3),
    ]


def test_the_original_medal_counts_where_it_grades_otherwise() -> None:
    runs = _runs()
    assert [r.original_medal for r in runs] == ["gold", None, "gold", None]
    rates = medal_rates(runs)
    assert rates is not None
    assert (rates.runs, rates.ours, rates.original) == (4, 25.0, 50.0)
    assert rates.competitions == ("ranzcr",)


def test_equal_rates_show_nothing_extra() -> None:
    same = [_graded_otherwise(record("ranzcr", 0, score=0.6), 0.6), record("digits", 0)]
    assert medal_rates(same) is None
    assert not any("original" in line for line in medal_table(same))
    assert "original_medal_rates" not in build_summary(merge_records(same))["agents"]["dummy"]


def test_terminal_summary_and_html_show_both_rates() -> None:
    runs = _runs()
    lines = medal_table(runs)
    assert (
        "  overall: any medal 25.0 % here, 50.0 % as the original MLE-bench grades (ranzcr "
        "graded otherwise there; docs/mlebench.md)"
    ) in lines
    summary = build_summary(merge_records(runs))
    section = summary["agents"]["dummy"]["original_medal_rates"]
    assert section == {
        "runs": 4,
        "any_medal": 25.0,
        "original_any_medal": 50.0,
        "competitions": ["ranzcr"],
    }
    page = render_html(summary)
    assert "Any medal 25.0 % here, 50.0 % as the original MLE-bench grades" in page


def test_allure_names_the_original_medal_where_it_grades_otherwise() -> None:
    from pytest_mlebench.report.allure import original_parameter

    runs = _runs()
    assert original_parameter(runs[0]) == f"gold (score 0.95, {NINE})"
    assert original_parameter(runs[2]) is None
