"""``--mle-max-cost-increase``: the limit's forms, the cost check's verdicts, and its place in the
gate (both modes) and in ``mlebench report --compare``. Pure: hand-made summaries."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.report.baseline_gate import gate_lines, run_gate
from pytest_mlebench.report.cost import cost_checks
from pytest_mlebench.report.markdown import render_markdown
from pytest_mlebench.values.cost_limit import CostLimit, cost_limit
from tests.report.test_baseline_gate import session


def priced(summary: dict[str, Any], dollars: float | None, calls: int = 2) -> dict[str, Any]:
    """``summary`` with every run's LLM usage set (``dollars=None``: an unpriced model)."""
    for entry in summary["competitions"]:
        for run in entry["runs"]:
            run["llm_usage"] = {
                "calls": calls,
                "input_tokens": 100,
                "output_tokens": 10,
                "cost_usd": dollars,
                "budget_exhausted": False,
            }
    return summary


@pytest.mark.parametrize(
    ("text", "limit"),
    [
        ("0.2", CostLimit(0.2, "fraction")),
        ("20%", CostLimit(0.2, "fraction")),
        (" 0 ", CostLimit(0.0, "fraction")),
        ("1.5", CostLimit(1.5, "fraction")),
        ("$0.05", CostLimit(0.05, "dollars")),
        ("$ 2", CostLimit(2.0, "dollars")),
    ],
)
def test_limits_parse(text: str, limit: CostLimit) -> None:
    assert cost_limit(text) == limit


@pytest.mark.parametrize("text", ["", "a lot", "-0.1", "$-1", "nan", "inf", "$5%", "20 dollars"])
def test_a_bad_limit_names_both_forms(text: str) -> None:
    with pytest.raises(ValueError, match=r"such as 0.2 \(or 20%\), or a dollar amount per run"):
        cost_limit(text)


@pytest.mark.parametrize(
    ("base", "new", "limit", "failed"),
    [
        (0.10, 0.12, "0.2", False),  # exactly at the ceiling passes
        (0.10, 0.1201, "0.2", True),
        (0.10, 0.05, "0", False),  # cheaper always passes
        (0.10, 0.1001, "0", True),
        (0.10, 0.15, "$0.05", False),
        (0.10, 0.16, "$0.05", True),
        (0.0, 0.01, "10%", True),  # from free, any fraction of nothing is nothing
        (0.0, 0.01, "$0.01", False),
    ],
)
def test_the_check_compares_the_mean_cost_per_run(
    base: float, new: float, limit: str, failed: bool
) -> None:
    [check] = cost_checks(
        priced(session(), base), priced(session(), new), [("dummy", "dummy")], cost_limit(limit)
    )
    assert check.runs == 12 and check.problem is None
    assert check.failed is failed


def test_a_cost_increase_fails_a_gate_that_passes_otherwise() -> None:
    base, new = priced(session(), 0.10), priced(session(), 0.20)
    result = run_gate(base, new, baseline="b.json", max_cost_increase=cost_limit("0.2"))
    assert result.mode == "paired" and not result.ok
    assert result.verdict == "cost increase"
    lines = gate_lines(result)
    assert lines[-2] == (
        "  cost: dummy: LLM cost per run $0.1000 -> $0.2000 (+100.0 %) over 12 matched run(s), "
        "more than the allowed +20 %  FAIL"
    )
    assert lines[-1].startswith("GATE FAILED: cost increase: dummy: LLM cost per run $0.1000")
    markdown = render_markdown(new, result, base)
    assert "## Gate: FAILED — cost increase" in markdown
    assert "- cost: dummy: LLM cost per run $0.1000 -> $0.2000" in markdown


def test_within_the_limit_the_gate_keeps_its_verdict_and_shows_the_check() -> None:
    base, new = priced(session(), 0.10), priced(session(), 0.11)
    result = run_gate(
        base, new, baseline="b.json", mode="rate-drop", max_cost_increase=cost_limit("$0.02")
    )
    assert result.ok and result.verdict == "passed"
    lines = gate_lines(result)
    assert lines[-1] == "gate passed"
    assert lines[-2].endswith("within the allowed +$0.0200 per run  ok")


def test_a_rate_drop_and_a_cost_increase_both_name_their_reason() -> None:
    worse = session()
    for entry in worse["agents"]["dummy"]["overall"]["metrics"].values():
        entry["mean"] = 0.0
    result = run_gate(
        priced(session(), 0.1),
        priced(worse, 0.5),
        baseline="b.json",
        mode="rate-drop",
        max_cost_increase=cost_limit("0.2"),
    )
    assert not result.ok and result.verdict == "failed"
    assert result.reason.startswith("drop larger than 0 points")
    assert "dummy: LLM cost per run $0.1000 -> $0.5000" in result.reason
    assert gate_lines(result)[-1] == f"GATE FAILED: {result.reason}"


@pytest.mark.parametrize(
    ("base", "new", "message"),
    [
        (None, 0.1, "the baseline carries no LLM usage (written before the gateway"),
        (0.1, None, "this session carries no LLM usage"),
        ("unpriced", 0.1, "every matched run has an unknown cost"),
    ],
)
def test_missing_cost_data_fails_the_check_and_says_which_side(
    base: float | str | None, new: float | None, message: str
) -> None:
    def side(dollars: float | str | None) -> dict[str, Any]:
        if dollars is None:
            return session()  # no gateway: llm_usage is null
        return priced(session(), None if dollars == "unpriced" else float(dollars))

    limit = CostLimit(1, "fraction")
    result = run_gate(side(base), side(new), baseline="b.json", max_cost_increase=limit)
    assert not result.ok and result.verdict == "cost increase"
    assert message in result.reason
    assert result.costs[0].problem is not None


def test_runs_of_unknown_cost_are_left_out_and_counted() -> None:
    base, new = priced(session(), 0.1), priced(session(), 0.1)
    new["competitions"][0]["runs"][0]["llm_usage"]["cost_usd"] = None
    [check] = run_gate(base, new, baseline="b", max_cost_increase=cost_limit("0")).costs
    assert (check.runs, check.unknown, check.failed) == (11, 1, False)
    assert "1 matched run(s) left out: their cost is unknown" in check.lines()[1]


def test_without_the_option_there_is_no_cost_check() -> None:
    result = run_gate(session(), priced(session(), 9.0), baseline="b")
    assert result.ok and result.costs == ()


def test_report_compare_takes_the_limit_and_its_exit_status_is_the_gate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base, new = tmp_path / "base.json", tmp_path / "new.json"
    base.write_text(json.dumps(priced(session(), 0.10)))
    new.write_text(json.dumps(priced(session(), 0.15)))
    compare = ["report", "--compare", str(base), str(new), "--out", str(tmp_path / "out")]
    assert main(compare) == 0
    assert main([*compare, "--max-cost-increase", "0.2"]) == 1
    assert "more than the allowed +20 %  FAIL" in capsys.readouterr().out
    assert main([*compare, "--max-cost-increase", "$0.05"]) == 0
    assert main([*compare, "--max-cost-increase", "cheap"]) == 2  # a usage error
    err = capsys.readouterr()
    assert "--max-cost-increase" in err.out + err.err and "$0.05" in err.out + err.err
