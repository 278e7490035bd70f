"""Paired statistics against known answers, and the gate's error rates in simulation."""

from __future__ import annotations

import pytest

from pytest_mlebench.report.paired_comparison import (
    CompetitionShift,
    RunPair,
    cluster_bootstrap,
    competition_shifts,
    describe_interval,
    exact_mcnemar,
    paired_verdict,
    significant,
    student_t_two_sided,
)
from tests.report.gate_simulation import Scenario, regression_rate


@pytest.mark.parametrize(
    ("gained", "lost", "p_value"),
    [
        (1, 8, 2 * (1 + 9) / 2**9),  # hand-worked: 2 * P(X <= 1), X ~ Bin(9, 1/2)
        (0, 5, 2 / 2**5),
        (5, 0, 2 / 2**5),
        (3, 3, 1.0),  # twice the tail exceeds one: capped
        (0, 0, 1.0),  # no flips, no evidence
        (2, 10, 2 * (1 + 12 + 66) / 2**12),
    ],
)
def test_exact_mcnemar(gained: int, lost: int, p_value: float) -> None:
    result = exact_mcnemar(gained, lost)
    assert (result.gained, result.lost) == (gained, lost)
    assert result.p_value == pytest.approx(p_value)


def test_mcnemar_rejects_negative_counts() -> None:
    with pytest.raises(ValueError, match="negative"):
        exact_mcnemar(-1, 2)


def test_bootstrap_on_a_fixed_seed_is_reproducible_and_brackets_the_mean() -> None:
    changes = {"a": [1.0, 3.0], "b": [-2.0], "c": [4.0, 5.0, 6.0], "d": [0.5]}
    first = cluster_bootstrap(changes, 0.95, resamples=500, seed=7)
    assert first == cluster_bootstrap(changes, 0.95, resamples=500, seed=7)
    assert first.estimate == pytest.approx((1 + 3 - 2 + 4 + 5 + 6 + 0.5) / 7)
    assert first.low < first.estimate < first.high


def test_bootstrap_of_two_clusters_spans_their_values() -> None:
    # Resampled means are 1, 2 or 3 with chances 1/4, 1/2, 1/4: the 2.5 % and 97.5 % quantiles
    # of 2000 resamples are the two extremes.
    interval = cluster_bootstrap({"a": [1.0], "b": [3.0]}, 0.95, resamples=2000, seed=1)
    assert (interval.low, interval.estimate, interval.high) == (1.0, 2.0, 3.0)


def test_bootstrap_of_one_cluster_is_its_mean() -> None:
    interval = cluster_bootstrap({"a": [2.0, 4.0]}, 0.9)
    assert (interval.low, interval.estimate, interval.high) == (3.0, 3.0, 3.0)


def test_bootstrap_needs_changes_and_a_level() -> None:
    with pytest.raises(ValueError, match="no paired changes"):
        cluster_bootstrap({}, 0.95)
    with pytest.raises(ValueError, match="strictly between"):
        cluster_bootstrap({"a": [1.0]}, 1.0)


def _pairs(changes: dict[str, list[tuple[float, float]]]) -> list[RunPair]:
    return [
        RunPair(cid, seed, base, new, base >= 90, new >= 90)
        for cid, runs in changes.items()
        for seed, (base, new) in enumerate(runs)
    ]


def test_a_clear_drop_is_a_regression() -> None:
    pairs = _pairs({f"c{i}": [(60.0 + i, 40.0 + i), (62.0 + i, 43.0 + i)] for i in range(8)})
    result = paired_verdict(pairs)
    assert result.verdict == "regression"
    assert result.percentile is not None and result.percentile.high < 0
    assert "percentile dropped significantly" in result.reason
    assert (result.pairs, result.competitions) == (16, 8)


def test_a_clear_gain_is_an_improvement() -> None:
    pairs = _pairs({f"c{i}": [(40.0 + i, 55.0 + i)] for i in range(8)})
    assert paired_verdict(pairs).verdict == "improvement"


def test_mixed_small_changes_are_no_significant_change() -> None:
    pairs = _pairs({"a": [(50.0, 53.0)], "b": [(50.0, 46.0)], "c": [(70.0, 71.0)], "d": [(60, 58)]})
    result = paired_verdict(pairs)
    assert result.verdict == "no significant change"
    assert "CI" in result.reason


def test_the_margin_fails_a_drop_that_is_not_significant() -> None:
    pairs = _pairs({"a": [(50.0, 30.0)], "b": [(50.0, 55.0)], "c": [(70.0, 60.0)]})
    assert paired_verdict(pairs).verdict == "no significant change"
    margined = paired_verdict(pairs, margin=5.0)
    assert margined.verdict == "regression" and "beyond the allowed 5" in margined.reason


def test_medals_lost_significantly_is_a_regression_even_without_percentiles() -> None:
    pairs = [RunPair(f"c{i}", 0, None, None, True, False) for i in range(6)]
    result = paired_verdict(pairs)
    assert result.percentile is None
    assert result.verdict == "regression" and "McNemar p=0.0312" in result.reason


def test_describe_interval() -> None:
    interval = cluster_bootstrap({"a": [1.0], "b": [3.0]}, 0.95, resamples=2000, seed=1)
    assert describe_interval(interval) == "+2.0 points (95 % CI +1.0 to +3.0)"


def test_noise_alone_rarely_trips_the_gate() -> None:
    # Same agent twice: the gate must call a regression in about alpha (0.05) of the trials.
    assert regression_rate(Scenario(drop=0.0), trials=300, seed=11) <= 0.10


def test_a_planted_regression_is_caught_in_most_trials() -> None:
    assert regression_rate(Scenario(drop=10.0), trials=200, seed=12) >= 0.8


@pytest.mark.parametrize(
    ("t", "df", "p_value"),
    [
        (12.706, 1, 0.05),  # the textbook two-sided 5 % critical values
        (4.303, 2, 0.05),
        (3.182, 3, 0.05),
        (2.776, 4, 0.05),
        (2.228, 10, 0.05),
        (2.064, 24, 0.05),
        (1.0, 1, 0.5),  # Cauchy: P(|T| >= 1) = 1/2
        (0.0, 5, 1.0),
        (float("inf"), 3, 0.0),
    ],
)
def test_student_t_two_sided(t: float, df: int, p_value: float) -> None:
    assert student_t_two_sided(t, df) == pytest.approx(p_value, abs=2e-4)
    assert student_t_two_sided(-t, df) == pytest.approx(p_value, abs=2e-4)


def test_competition_shifts_pool_the_seed_noise() -> None:
    # spreads around the means: a (+1, -1), b (+1, -1), c (0): pooled variance 4 / 2 = 2, df 2
    shifts = {s.competition_id: s for s in competition_shifts(
        {"a": [-9.0, -11.0], "b": [1.0, -1.0], "c": [0.5]}
    )}  # fmt: skip
    assert shifts["a"].change == -10.0 and shifts["a"].runs == 2
    # t = -10 / sqrt(2 / 2) = -10 with 2 degrees of freedom: p = 1 - 10 / sqrt(102)
    assert shifts["a"].p_value == pytest.approx(1 - 10 / 102**0.5)
    assert shifts["b"].p_value == 1.0
    # p = 0.0099 passes the bar 0.1 / 2 / 3 = 0.0167, but not 0.05 / 2 / 3 = 0.0083
    assert [s.competition_id for s in significant(list(shifts.values()), 0.1)] == ["a"]
    assert significant(list(shifts.values()), 0.05) == []


def test_competition_shifts_need_a_noise_estimate() -> None:
    assert competition_shifts({"a": [-50.0], "b": [0.0]}) == ()


def test_without_any_noise_only_what_moved_is_significant() -> None:
    shifts = competition_shifts({"a": [-60.0, -60.0], "b": [0.0, 0.0]})
    assert [(s.competition_id, s.p_value) for s in shifts] == [("a", 0.0), ("b", 1.0)]


def test_one_competition_that_dropped_is_a_regression_though_the_mean_is_not() -> None:
    pairs = _pairs(
        {"a": [(80.0, 20.0), (82.0, 21.0), (81.0, 20.5)]}
        | {f"c{i}": [(50.0, 51.0), (50.0, 49.0), (50.0, 50.5)] for i in range(9)}
    )
    result = paired_verdict(pairs)
    assert result.percentile is not None and result.percentile.high >= 0  # the mean alone: no
    assert result.verdict == "regression"
    assert "competition(s) dropped beyond the seed noise: a -60.5 points over 3 seed(s)" in (
        result.reason
    )
    assert [s.competition_id for s in result.significant_shifts()] == ["a"]


def test_the_per_competition_tests_spend_half_of_alpha_bonferroni() -> None:
    shifts = [CompetitionShift(f"c{i}", 3, -1.0, 0.004) for i in range(5)]
    # 0.05 / 2 / 5 = 0.005: all five pass the bar; with ten competitions none does
    assert len(significant(shifts, 0.05)) == 5
    assert significant(shifts * 2, 0.05) == []


def test_a_strong_drop_on_one_competition_is_caught_in_most_trials() -> None:
    assert regression_rate(Scenario(drop_one=40.0), trials=100, seed=13) >= 0.8
