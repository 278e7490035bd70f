"""Engineering scores by hand: results → dimensions → S, gates, metrics, the H- checks."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pytest_mlebench.eng.evidence import (
    audit_check,
    find_secrets,
    llm_check,
    secrets_check,
    wall_check,
)
from pytest_mlebench.eng.scoring import CheckResult, normalised_metric, score_checks, score_run
from pytest_mlebench.eng.task import load_task
from pytest_mlebench.eng.task_checks import DEFAULT_WEIGHTS, Metric
from tests.eng.task_folders import base_config, write_task


def result(
    check: str, dimension: str, value: float, weight: float = 1, gate: bool = False
) -> CheckResult:
    return CheckResult(id=check, dimension=dimension, weight=weight, gate=gate, result=value)  # type: ignore[arg-type]


def test_dimensions_are_weighted_means_and_s_the_weighted_sum() -> None:
    checks = [
        result("F1", "functional", 1.0, weight=1, gate=True),
        result("F2", "functional", 0.0, weight=3),
        result("R1", "robustness", 0.5),
        result("E1", "efficiency", 1.0),
        result("X1", "explainability", 0.0),
        result("S1", "safety", 1.0),
    ]
    score = score_checks(checks, DEFAULT_WEIGHTS)
    assert score.dimensions == {
        "functional": 0.25,
        "robustness": 0.5,
        "efficiency": 1.0,
        "explainability": 0.0,
        "safety": 1.0,
    }
    # 0.40 * 0.25 + 0.25 * 0.5 + 0.15 * 1 + 0.10 * 0 + 0.10 * 1 = 0.475
    assert score.score == pytest.approx(0.475)
    assert score.redistributed == ()
    assert score.gates_passed and score.passed(0.4) and not score.passed(0.5)


def test_a_dimension_without_checks_passes_its_weight_on_pro_rata() -> None:
    checks = [result("F1", "functional", 1.0), result("S1", "safety", 0.0)]
    score = score_checks(checks, DEFAULT_WEIGHTS)
    # only functional (0.40) and safety (0.10) scored: they become 0.8 and 0.2
    assert score.weights == pytest.approx({"functional": 0.8, "safety": 0.2})
    assert score.redistributed == ("robustness", "efficiency", "explainability")
    assert score.score == pytest.approx(0.8)


def test_a_failed_gate_fails_the_run_whatever_the_score() -> None:
    checks = [result("F1", "functional", 0.5, gate=True), result("F2", "functional", 1.0, weight=9)]
    score = score_checks(checks, DEFAULT_WEIGHTS)
    assert score.score == pytest.approx(0.95)
    assert not score.gates_passed and score.failed_gates == ("F1",)
    assert not score.passed(0.0)


def test_metrics_are_normalised_with_their_direction() -> None:
    higher = Metric(higher_is_better=True, baseline=0.6, oracle=0.8)
    lower = Metric(higher_is_better=False, baseline=10.0, oracle=4.0)
    assert normalised_metric(0.7, higher) == pytest.approx(0.5)
    assert normalised_metric(0.9, higher) == 1.0
    assert normalised_metric(0.5, higher) == 0.0
    assert normalised_metric(7.0, lower) == pytest.approx(0.5)
    assert normalised_metric(12.0, lower) == 0.0
    assert normalised_metric(1.0, lower) == 1.0


def _metric_task(tmp_path: Path):  # type: ignore[no-untyped-def]
    config = copy.deepcopy(base_config())
    config["requirements"]["R3"] = "auc"
    config["metrics"] = {"MS1": {"higher_is_better": True, "baseline": 0.5, "oracle": 0.9}}
    config["checks"].append(
        {"id": "MS1", "covers": ["R3"], "dimension": "functional", "why": "w", "fix_hint": "f"}
    )
    return load_task(write_task(tmp_path, config))


def test_the_verifier_document_is_scored_with_metrics(tmp_path: Path) -> None:
    task = _metric_task(tmp_path)
    document = {
        "checks": {
            "F1": {"result": 1.0, "passed": 1, "total": 1, "evidence": ["made"], "tests": []},
            "R1": {"result": 0.5, "passed": 1, "total": 2, "evidence": [], "tests": []},
        },
        "metrics": {"MS1": 0.8},
    }
    score = score_run(task, document)
    by_id = {check.id: check for check in score.checks}
    assert by_id["F1"].result == 1.0 and by_id["F1"].evidence == "made"
    assert by_id["MS1"].result == pytest.approx(0.75)
    assert by_id["F1"].why == "the job" and by_id["F1"].fix_hint == "write done.txt"
    # functional (1 + 0.75) / 2; robustness 0.5; the rest redistributed
    assert score.dimensions == pytest.approx({"functional": 0.875, "robustness": 0.5})
    assert score.score == pytest.approx((0.40 * 0.875 + 0.25 * 0.5) / 0.65)


def test_a_metric_whose_test_failed_or_that_is_missing_scores_zero(tmp_path: Path) -> None:
    task = _metric_task(tmp_path)
    failed = {"checks": {"MS1": {"result": 0.0, "total": 1}}, "metrics": {"MS1": 0.9}}
    assert {c.id: c.result for c in score_run(task, failed).checks}["MS1"] == 0.0
    assert {c.id: c.result for c in score_run(task, {"checks": {}}).checks}["MS1"] == 0.0


def test_a_check_the_verifier_did_not_report_scores_zero(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path))
    score = score_run(task, {"checks": {}})
    assert [check.result for check in score.checks] == [0.0, 0.0]
    assert not score.gates_passed


def test_stage_points_multiply_points_by_results() -> None:
    checks = [result("F1", "functional", 1.0), result("X1", "explainability", 0.5)]
    score = score_checks(checks, DEFAULT_WEIGHTS, {"problem": {"F1": 8, "X1": 6}, "none": {}})
    assert score.stages == {"problem": 11.0, "none": 0.0}


def test_h_wall_scales_between_the_oracle_and_the_limit() -> None:
    assert wall_check(10, 100, 10).result == 1.0
    assert wall_check(55, 100, 10).result == pytest.approx(0.5)
    assert wall_check(100, 100, 10).result == 0.0
    assert wall_check(150, 100, None).result == 0.0
    assert wall_check(25, 100, None).result == pytest.approx(0.75)
    assert wall_check(1, 100, 10).dimension == "efficiency"


def test_h_llm_only_with_a_gateway_and_a_budget() -> None:
    assert llm_check(None, 1000, None) is None
    assert llm_check({"total_tokens": 10}, None, None) is None
    check = llm_check({"total_tokens": 250}, 1000, None)
    assert check is not None and check.result == pytest.approx(0.75)
    cost = llm_check({"total_tokens": 0, "cost_usd": 0.5}, None, 2.0)
    assert cost is not None and cost.result == pytest.approx(0.75)


def test_h_audit_penalties_floor_at_zero() -> None:
    assert audit_check([]).result == 1.0
    assert audit_check(["low", "info"]).result == pytest.approx(0.9)
    assert audit_check(["medium", "low"]).result == pytest.approx(0.4)
    assert audit_check(["high", "medium"]).result == 0.0
    assert audit_check(["medium"]).dimension == "safety"


def test_h_secrets_finds_run_secrets_and_key_patterns(tmp_path: Path) -> None:
    work, logs = tmp_path / "work", tmp_path / "logs"
    work.mkdir()
    logs.mkdir()
    (work / "app.py").write_text("print('clean')")
    assert find_secrets([work, logs], ["run-token-123456"]) == []
    (logs / "run.log").write_text("token run-token-123456 leaked")
    (work / "cfg.env").write_text("KEY=sk-abcdefghijklmnopqrstuvwxyz012345")
    found = find_secrets([work, logs], ["run-token-123456"])
    assert found == ["work/cfg.env", "logs/run.log"]
    assert secrets_check(found).result == 0.0
    assert secrets_check([]).result == 1.0


results_strategy = st.lists(
    st.tuples(
        st.sampled_from(["functional", "robustness", "efficiency", "explainability", "safety"]),
        st.floats(0, 1),
        st.floats(0.1, 5),
        st.booleans(),
    ),
    min_size=1,
    max_size=8,
)
Entries = list[tuple[str, float, float, bool]]


def _checks(entries: Entries) -> list[CheckResult]:
    return [result(f"C{i}", d, value, w, gate) for i, (d, value, w, gate) in enumerate(entries)]


@given(results_strategy)
def test_s_is_in_the_unit_interval(entries: Entries) -> None:
    assert 0.0 <= score_checks(_checks(entries), DEFAULT_WEIGHTS).score <= 1.0


@given(results_strategy, st.integers(0, 7), st.floats(0, 1))
def test_s_is_monotone_in_each_result(entries: Entries, index: int, raise_by: float) -> None:
    """Also across the functional gate: passing it gives the withheld dimensions back."""
    checks = _checks(entries)
    index %= len(checks)
    better = list(checks)
    old = better[index]
    raised = min(1.0, old.result + raise_by)
    better[index] = result(old.id, old.dimension, raised, old.weight, old.gate)
    before = score_checks(checks, DEFAULT_WEIGHTS).score
    after = score_checks(better, DEFAULT_WEIGHTS).score
    assert after >= before - 1e-12


def test_a_failed_functional_gate_earns_nothing_for_efficiency_safety_explainability() -> None:
    """Doing nothing is fast, cheap and harmless: those dimensions mean something only for code
    that works. Robustness keeps what it earned."""
    checks = [
        result("F1", "functional", 0.0, gate=True),
        result("R1", "robustness", 1.0),
        result("H-wall", "efficiency", 1.0),
        result("X1", "explainability", 1.0),
        result("H-audit", "safety", 1.0),
    ]
    score = score_checks(checks, DEFAULT_WEIGHTS)
    assert score.withheld == ("efficiency", "safety", "explainability")
    assert score.dimensions == {
        "functional": 0.0,
        "robustness": 1.0,
        "efficiency": 0.0,
        "explainability": 0.0,
        "safety": 0.0,
    }
    assert score.score == pytest.approx(0.25)
    passing = [result("F1", "functional", 1.0, gate=True), *checks[1:]]
    assert score_checks(passing, DEFAULT_WEIGHTS).withheld == ()


def test_the_functional_gate_is_every_gate_where_none_is_functional() -> None:
    checks = [
        result("F1", "functional", 1.0),
        result("S1", "safety", 0.0, gate=True),
        result("H-wall", "efficiency", 1.0),
    ]
    assert score_checks(checks, DEFAULT_WEIGHTS).withheld == ("efficiency", "safety")
    other_gate_failed = [result("F0", "functional", 1.0, gate=True), *checks]
    assert score_checks(other_gate_failed, DEFAULT_WEIGHTS).withheld == ()


def _p2p_task(tmp_path: Path):  # type: ignore[no-untyped-def]
    config = copy.deepcopy(base_config())
    config["checks"][0]["role"] = "fail-to-pass"
    config["checks"][1]["role"] = "pass-to-pass"
    return load_task(write_task(tmp_path, config))


def test_pass_to_pass_earns_nothing_unless_fail_to_pass_moved(tmp_path: Path) -> None:
    task = _p2p_task(tmp_path)
    untouched = {"checks": {"F1": {"result": 0.0}, "R1": {"result": 1.0, "evidence": ["ok"]}}}
    by_id = {check.id: check for check in score_run(task, untouched).checks}
    assert by_id["R1"].result == 0.0
    assert by_id["R1"].evidence == "ok; no credit: no fail-to-pass check moved"
    moved = {"checks": {"F1": {"result": 0.5}, "R1": {"result": 1.0}}}
    assert {c.id: c.result for c in score_run(task, moved).checks}["R1"] == 1.0


def test_doing_nothing_scores_zero_with_every_harness_check_at_full_marks(tmp_path: Path) -> None:
    """The do-nothing run of a pass-to-pass task: its untouched workspace passes every old test,
    and it was as fast, frugal and harmless as a run can be."""
    task = _p2p_task(tmp_path)
    harness = [
        result("H-wall", "efficiency", 1.0),
        result("H-cpu", "efficiency", 1.0),
        result("H-audit", "safety", 1.0),
        result("H-watermark", "safety", 1.0),
    ]
    untouched = {"checks": {"F1": {"result": 0.0}, "R1": {"result": 1.0}}}
    assert score_run(task, untouched, harness).score == 0.0
    assert score_run(task, {"checks": {}}, harness).score == 0.0  # a rejected verifier's
