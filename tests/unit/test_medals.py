"""Kaggle medal thresholds: the rank table at every band edge, ties, direction, above-median."""

from __future__ import annotations

import pytest

from pytest_mlebench.medals import Thresholds, medal_for, medal_ranks, thresholds_for


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (1, (1, 1, 1)),
        (50, (5, 10, 20)),
        (99, (9, 19, 39)),
        (100, (10, 20, 40)),
        (150, (10, 30, 60)),
        (249, (10, 49, 99)),
        (250, (10, 50, 100)),
        (500, (11, 50, 100)),
        (999, (11, 50, 100)),
        (1000, (12, 50, 100)),
        (2000, (14, 100, 200)),
        (5000, (20, 250, 500)),
    ],
)
def test_medal_ranks_follow_the_kaggle_table(n: int, expected: tuple[int, int, int]) -> None:
    assert medal_ranks(n) == expected


def test_empty_leaderboard_is_rejected() -> None:
    with pytest.raises(ValueError, match="at least one row"):
        medal_ranks(0)


def descending(n: int) -> list[float]:
    """Scores n, n-1, ..., 1 so that the score in row k is n - k + 1."""
    return [float(n - k) for k in range(n)]


@pytest.mark.parametrize("n", [50, 150, 500, 2000, 5000])
def test_thresholds_are_the_scores_at_the_ranks(n: int) -> None:
    scores = descending(n)
    gold, silver, bronze = medal_ranks(n)
    thresholds = thresholds_for(scores, lower_is_better=False)
    assert (thresholds.gold, thresholds.silver, thresholds.bronze) == (
        scores[gold - 1],
        scores[silver - 1],
        scores[bronze - 1],
    )


HIGHER = Thresholds(gold=0.9, silver=0.8, bronze=0.7, median=0.5, lower_is_better=False)
LOWER = Thresholds(gold=0.1, silver=0.2, bronze=0.3, median=0.5, lower_is_better=True)


@pytest.mark.parametrize(
    ("score", "thresholds", "medal", "above_median"),
    [
        (0.95, HIGHER, "gold", True),
        (0.9, HIGHER, "gold", True),  # equal to the threshold earns it
        (0.8999999, HIGHER, "gold", True),  # rounded to 5 decimals first
        (0.89, HIGHER, "silver", True),
        (0.8, HIGHER, "silver", True),
        (0.7, HIGHER, "bronze", True),
        (0.69, HIGHER, None, True),
        (0.5, HIGHER, None, False),  # above-median is strict
        (0.4, HIGHER, None, False),
        (0.05, LOWER, "gold", True),
        (0.1, LOWER, "gold", True),
        (0.2, LOWER, "silver", True),
        (0.3, LOWER, "bronze", True),
        (0.31, LOWER, None, True),
        (0.5, LOWER, None, False),
        (0.6, LOWER, None, False),
    ],
)
def test_medal_for(
    score: float, thresholds: Thresholds, medal: str | None, above_median: bool
) -> None:
    award = medal_for(score, thresholds)
    assert award.medal == medal
    assert award.any_medal is (medal is not None)
    assert award.above_median is above_median


def test_tiers_are_exclusive_when_thresholds_tie() -> None:
    tied = Thresholds(gold=0.9, silver=0.9, bronze=0.9, median=0.5, lower_is_better=False)
    assert medal_for(0.9, tied).medal == "gold"


def test_single_row_leaderboard_gold_needs_the_top_score() -> None:
    thresholds = thresholds_for([0.8], lower_is_better=False)
    assert medal_for(0.8, thresholds).medal == "gold"
    assert medal_for(0.79, thresholds).medal is None
    assert thresholds.median == 0.8


APTOS = Thresholds(
    gold=0.930508, silver=0.919654, bronze=0.914492, median=0.888912, lower_is_better=False
)


@pytest.mark.parametrize(
    ("score", "medal"),
    [
        # The original rounds the score to 5 decimals and compares it with the board's unrounded
        # 6-decimal thresholds: a score in [0.919645, 0.919655) rounds to 0.91965 < 0.919654.
        (0.919645, "bronze"),
        (0.91965, "bronze"),
        (0.919653, "bronze"),
        (0.919654, "bronze"),  # equal to the threshold, but rounded below it first
        (0.9196549, "bronze"),
        (0.91966, "silver"),
        (0.930504, "silver"),  # rounds to 0.9305 < 0.930508
        (0.930505, "gold"),  # rounds up to 0.93051 >= 0.930508, though below it unrounded
        (0.914492, None),  # rounds to 0.91449 < 0.914492: no medal, as in the original
    ],
)
def test_the_score_is_rounded_the_threshold_is_not(score: float, medal: str | None) -> None:
    assert medal_for(score, APTOS).medal == medal


def test_the_aptos_case_on_the_shipped_board() -> None:
    from pytest_mlebench.registry import load_registry

    thresholds = load_registry().get("aptos2019-blindness-detection").thresholds
    assert thresholds is not None and thresholds.silver == 0.919654
    assert medal_for(0.91965, thresholds).medal == "bronze"
    assert medal_for(0.91966, thresholds).medal == "silver"
