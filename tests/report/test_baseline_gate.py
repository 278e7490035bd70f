"""The CI gate's modes: which one runs and why, the paired verdicts, unmatched runs, cost."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.baseline_gate import gate_lines, paired_margin, run_gate
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.summary_json import build_summary
from tests.report.builders import record

COMPETITIONS = ("alpha", "beta", "gamma", "delta")
# a little seed noise everywhere, so the per-competition tests have something to pool
NOISE = (0.0, 2.0, -2.0)


def session(
    level: dict[str, float] | None = None, seeds: int = 3, **keywords: Any
) -> dict[str, Any]:
    """Every competition at percentile 60 (± noise), except those named in ``level``."""
    runs: list[RunRecord] = []
    for cid in COMPETITIONS:
        for seed in range(seeds):
            value = (level or {}).get(cid, 60.0) + NOISE[seed % 3]
            runs.append(record(cid, seed, 0.6, percentile=value, **keywords))
    return build_summary(merge_records(runs))


def without_percentiles(summary: dict[str, Any]) -> dict[str, Any]:
    """A summary.json as versions before percentiles wrote it."""
    old = copy.deepcopy(summary)
    for entry in old["competitions"]:
        entry.pop("mean_percentile")
        for run in entry["runs"]:
            run.pop("percentile")
    return old


def test_identical_sessions_are_no_significant_change() -> None:
    base = session()
    result = run_gate(base, session(), baseline="base.json")
    assert (result.mode, result.ok, result.verdict) == ("paired", True, "no significant change")
    (agent,) = result.agents
    assert (agent.result.pairs, agent.result.competitions) == (12, 4)
    lines = gate_lines(result)
    assert lines[0] == "gate against base.json (paired, alpha 0.05, margin off):"
    assert "    percentile change +0.0 points (95 % CI +0.0 to +0.0)" in lines
    assert "    medal flips +0/-0 (exact McNemar p=1)" in lines
    assert lines[-1].startswith("gate passed: no significant change: percentile +0.0 points")


def test_one_competition_that_dropped_on_every_seed_is_a_regression() -> None:
    result = run_gate(session(), session({"beta": 20.0}), baseline="base.json")
    assert (result.ok, result.verdict) == (False, "regression")
    assert result.reason.startswith(
        "competition(s) dropped beyond the seed noise: beta -40.0 points over 3 seed(s)"
    )
    lines = gate_lines(result)
    assert lines[-1].startswith("GATE FAILED: regression: competition(s) dropped")
    assert any(line.startswith("    beyond the seed noise: beta -40.0 points") for line in lines)


def test_a_broad_gain_is_an_improvement_and_passes() -> None:
    better = session({cid: 75.0 for cid in COMPETITIONS})
    result = run_gate(session(), better, baseline="base.json")
    assert (result.ok, result.verdict) == (True, "improvement")


def test_an_old_baseline_falls_back_to_rate_drop_and_says_why() -> None:
    result = run_gate(without_percentiles(session()), session(), baseline="old.json")
    assert (result.mode, result.ok, result.verdict) == ("rate-drop", True, "passed")
    note = (
        "rate-drop gate: the baseline carries no leaderboard percentiles (written before "
        "percentiles existed); the paired gate needs them on both sides"
    )
    assert note in result.notes
    lines = gate_lines(result)
    assert lines[:2] == ["gate against old.json:", f"  note: {note}"]
    assert lines[-1] == "gate passed"


def test_a_results_file_of_version_one_has_no_percentiles_either() -> None:
    base = build_summary(merge_records([record(cid, 0, 0.6) for cid in COMPETITIONS]))
    assert run_gate(base, session(), baseline="v1.jsonl").mode == "rate-drop"


def test_rate_drop_on_request_keeps_todays_meaning() -> None:
    result = run_gate(session(), session(), baseline="b", mode="rate-drop", max_drop=0)
    assert (result.mode, result.notes, result.ok) == ("rate-drop", (), True)
    assert gate_lines(result)[0] == "gate against b:"


def test_paired_on_request_compares_medal_flips_without_percentiles() -> None:
    base = without_percentiles(session())
    result = run_gate(base, session(), baseline="b", mode="paired")
    assert result.mode == "paired"
    assert result.agents[0].result.percentile is None
    assert "no percentiles to compare" in result.reason


def test_nothing_matched_falls_back_to_rate_drop() -> None:
    new = session(seeds=1)
    base = build_summary(
        merge_records([record(cid, 7, 0.6, percentile=60.0) for cid in COMPETITIONS])
    )
    result = run_gate(base, new, baseline="b")
    assert result.mode == "rate-drop"
    assert result.notes[0].startswith("rate-drop gate: no run of this session matches")


def test_unmatched_runs_are_reported_apart() -> None:
    base = session()
    new = build_summary(
        merge_records(
            [
                record(c, s, 0.6, percentile=60.0 + NOISE[s])
                for c in COMPETITIONS[:3]
                for s in range(3)
            ]
            + [record("epsilon", 0, 0.6, percentile=50.0)]
        )
    )
    result = run_gate(base, new, baseline="b")
    matching = result.agents[0].matching
    assert matching.only_base == (("delta", 0), ("delta", 1), ("delta", 2))
    assert matching.only_new == (("epsilon", 0),)
    lines = gate_lines(result)
    assert "    3 run(s) only in the baseline (not compared): delta s0, delta s1, delta s2" in lines
    assert "    1 run(s) only in this session (not compared): epsilon s0" in lines


@pytest.mark.parametrize(("max_drop", "margin"), [(0.0, None), (2.5, 2.5)])
def test_max_drop_is_the_margin_in_percentile_points(max_drop: float, margin: float | None) -> None:
    assert paired_margin(max_drop) == margin


def test_the_margin_fails_a_drop_the_tests_cannot_call() -> None:
    # one seed: no noise estimate per competition; a 3-point mean drop is not significant
    base = session(seeds=1)
    new = session({"alpha": 50.0, "beta": 58.0, "gamma": 62.0, "delta": 58.0}, seeds=1)
    assert run_gate(base, new, baseline="b").ok
    margined = run_gate(base, new, baseline="b", max_drop=2)
    assert (margined.ok, margined.verdict) == (False, "regression")
    assert "beyond the allowed 2" in margined.reason
    assert gate_lines(margined)[0].endswith("(paired, alpha 0.05, margin 2 points):")


def test_alpha_sets_the_interval_level() -> None:
    result = run_gate(session(), session(), baseline="b", alpha=0.2)
    assert "80 % CI" in gate_lines(result)[2]


def test_cost_joins_when_runs_carry_usage_and_stays_silent_otherwise() -> None:
    base, new = session(), session()
    assert run_gate(base, new, baseline="b").agents[0].cost is None
    for summary, tokens, dollars in ((base, 1000, 0.5), (new, 500, 0.25)):
        for entry in summary["competitions"]:
            for run in entry["runs"]:
                run["llm_usage"] = {"input_tokens": tokens, "output_tokens": 0, "cost_usd": dollars}
    gate = run_gate(base, new, baseline="b")
    cost = gate.agents[0].cost
    assert cost is not None and cost.runs == 12
    assert (
        cost.line() == "cost over 12 matched run(s): tokens 12000 -> 6000 (-50.0 %), $6.00 -> $3.00"
    )
    assert f"    {cost.line()}" in gate_lines(gate)


def one_seed_session(invalid: tuple[str, ...] = ()) -> dict[str, Any]:
    """Fourteen competitions, one seed, percentile 80; ``invalid`` ones hand in no valid file."""
    runs = [
        record(
            cid, 0, None if cid in invalid else 0.85, percentile=None if cid in invalid else 80.0
        )
        for cid in (f"c{n:02d}" for n in range(14))
    ]
    return build_summary(merge_records(runs))


def test_a_competition_that_lost_its_valid_submission_fails_the_default_gate() -> None:
    result = run_gate(one_seed_session(), one_seed_session(("c03",)), baseline="base.json")
    assert result.mode == "paired"
    assert (result.ok, result.verdict) == (False, "regression")
    assert result.lost_valid == ("c03 (dummy) 100 % -> 0 %",)
    lines = gate_lines(result)
    assert "  valid submissions lost: c03 (dummy) 100 % -> 0 %" in lines
    assert lines[-1] == "GATE FAILED: regression: valid submissions lost: c03 (dummy) 100 % -> 0 %"


def test_a_lost_valid_submission_fails_the_rate_drop_gate_within_its_allowance() -> None:
    # one of 14 is a 7.1-point drop overall: inside --mle-max-drop 10, still a lost submission
    result = run_gate(
        one_seed_session(), one_seed_session(("c03",)), baseline="b", mode="rate-drop", max_drop=10
    )
    assert (result.ok, result.verdict) == (False, "failed")
    assert gate_lines(result)[-1] == "GATE FAILED: valid submissions lost: c03 (dummy) 100 % -> 0 %"


def test_sessions_in_different_sandbox_backends_are_refused_naming_them() -> None:
    docker = session(sandbox="docker")
    result = run_gate(docker, session(), baseline="base.json")
    assert (result.ok, result.verdict) == (False, "not comparable")
    (line,) = gate_lines(result)
    assert line.startswith("GATE FAILED: not comparable: the baseline base.json ran in the docker")
    assert "this session in local" in line and "--mle-sandbox" in line


def test_a_baseline_without_backends_is_compared_as_before() -> None:
    old = session(sandbox="docker")
    del old["sandboxes"], old["manifest"]  # a summary that old had no manifest either
    assert run_gate(old, session(), baseline="old.json").ok
