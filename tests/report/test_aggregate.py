"""Aggregation against hand-computed values: mean ± SEM (ddof=1), 95 % CI, unbiased pass@k."""

from __future__ import annotations

import math

import pytest

from pytest_mlebench.report.aggregate import group_stats, mean_sem, pass_at_k, seed_rates
from tests.report.builders import record

THIRD = 100 / 3


@pytest.mark.parametrize(
    ("values", "mean", "sem"),
    [
        ([], None, None),
        ([5.0], 5.0, None),
        ([1.0, 3.0], 2.0, 1.0),  # sd sqrt(2), sem sqrt(2)/sqrt(2)
        ([0.0, 0.0, 0.0], 0.0, 0.0),
        ([10.0, 20.0, 30.0, 40.0], 25.0, math.sqrt(500 / 3 / 4)),
        ([THIRD, 0.0, 2 * THIRD], THIRD, THIRD / math.sqrt(3)),
    ],
)
def test_mean_sem(values: list[float], mean: float | None, sem: float | None) -> None:
    estimate = mean_sem(values)
    assert estimate.n == len(values)
    assert estimate.mean == pytest.approx(mean)
    assert estimate.sem == pytest.approx(sem)
    if sem is None or mean is None:
        assert estimate.ci95 is None
    else:
        assert estimate.ci95 == pytest.approx((mean - 1.96 * sem, mean + 1.96 * sem))


@pytest.mark.parametrize(
    ("n", "c", "k", "expected"),
    [
        (1, 0, 1, 0.0),
        (1, 1, 1, 1.0),
        (3, 1, 1, 1 / 3),
        (3, 1, 2, 2 / 3),  # 1 - C(2,2)/C(3,2)
        (3, 2, 2, 1.0),  # fewer failures than attempts
        (5, 2, 3, 0.9),  # 1 - C(3,3)/C(5,3) = 1 - 1/10
        (10, 3, 5, 1 - 21 / 252),  # 1 - C(7,5)/C(10,5)
        (8, 0, 8, 0.0),
    ],
)
def test_pass_at_k(n: int, c: int, k: int, expected: float) -> None:
    assert pass_at_k(n, c, k) == pytest.approx(expected)


@pytest.mark.parametrize(("n", "c", "k"), [(2, 0, 3), (2, 3, 1), (2, 1, 0)])
def test_pass_at_k_rejects_inconsistent_counts(n: int, c: int, k: int) -> None:
    with pytest.raises(ValueError, match="pass@k needs"):
        pass_at_k(n, c, k)


# Three competitions x three seeds (thresholds: gold 0.9, silver 0.8, bronze 0.7, median 0.5).
#          seed 0        seed 1        seed 2
# alpha    0.95 gold     0.5 none      0.75 bronze
# beta     0.4  none     0.4 none      0.85 silver
# gamma    invalid       0.6 none      0.3  none
HAND_MADE = [
    record("alpha", 0, 0.95), record("alpha", 1, 0.5), record("alpha", 2, 0.75),
    record("beta", 0, 0.4), record("beta", 1, 0.4), record("beta", 2, 0.85),
    record("gamma", 0, None, outcome="failed"), record("gamma", 1, 0.6), record("gamma", 2, 0.3),
    record("delta", 0, outcome="skipped"),
]  # fmt: skip


def test_rates_per_seed() -> None:
    assert seed_rates(HAND_MADE, "any_medal") == pytest.approx({0: THIRD, 1: 0.0, 2: 2 * THIRD})
    assert seed_rates(HAND_MADE, "valid_submission") == pytest.approx(
        {0: 2 * THIRD, 1: 100, 2: 100}
    )
    assert seed_rates(HAND_MADE, "above_median") == pytest.approx(
        {0: THIRD, 1: THIRD, 2: 2 * THIRD}
    )


def test_group_statistics_of_the_hand_made_set() -> None:
    stats = group_stats(HAND_MADE)
    assert (stats["competitions"], stats["runs"], stats["not_run"]) == (3, 9, 1)
    assert stats["outcomes"] == {"passed": 8, "failed": 1, "error": 0, "skipped": 1}
    medal = stats["metrics"]["any_medal"]
    assert medal["mean"] == pytest.approx(THIRD)
    assert medal["sem"] == pytest.approx(19.245009)
    assert medal["ci95"] == pytest.approx([THIRD - 1.96 * 19.245009, THIRD + 1.96 * 19.245009])
    valid = stats["metrics"]["valid_submission"]
    assert valid["mean"] == pytest.approx(800 / 9)
    assert valid["sem"] == pytest.approx(100 / 9)
    assert stats["metrics"]["gold_medal"]["per_seed"] == pytest.approx({"0": THIRD, "1": 0, "2": 0})
    pass_at = {k: v["value"] for k, v in stats["pass_at_k"].items()}
    assert pass_at == pytest.approx({"1": THIRD, "2": 500 / 9, "3": 2 * THIRD})


def test_an_agent_error_counts_as_reaching_nothing_infra_and_a_skip_not_at_all() -> None:
    records = [
        record("alpha", 0, 0.95),
        record("beta", 0, outcome="error", graded=False, failure_class="agent_crash"),
        record("delta", 0, outcome="error", graded=False, reason="SandboxError: engine gone"),
        record("gamma", 0, outcome="skipped"),
    ]
    stats = group_stats(records)
    assert (stats["runs"], stats["counted_runs"], stats["not_run"]) == (3, 2, 1)
    assert stats["metrics"]["any_medal"]["mean"] == pytest.approx(50.0)
    assert stats["metrics"]["submission_exists"]["mean"] == pytest.approx(50.0)
    assert stats["excluded"]["runs"] == 1
    assert stats["excluded"]["classes"] == {"infra": 1}
    (why,) = stats["excluded"]["reasons"]
    assert (why["competition_id"], why["reason"]) == ("delta", "SandboxError: engine gone")
    assert stats["failure_classes"]["agent_crash"] == 1
    assert stats["failure_classes"]["infra"] == 1
    assert stats["pass_at_k"]["1"]["competitions"] == 2  # an infra run is no attempt


def test_pass_at_k_only_averages_competitions_with_enough_runs() -> None:
    records = [record("alpha", 0, 0.95), record("alpha", 1, 0.1), record("beta", 0, 0.1)]
    table = group_stats(records)["pass_at_k"]
    assert table["1"] == {"value": pytest.approx(25.0), "competitions": 2}  # (1/2 + 0) / 2
    assert table["2"] == {"value": pytest.approx(100.0), "competitions": 1}
