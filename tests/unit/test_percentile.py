"""Leaderboard percentile: beats, ties counting half, direction, rounding."""

from __future__ import annotations

import pytest

from pytest_mlebench.percentile import leaderboard_percentile

BOARD = (0.9, 0.8, 0.8, 0.7, 0.6)


@pytest.mark.parametrize(
    ("score", "lower_is_better", "expected"),
    [
        (0.95, False, 100.0),  # beats all five
        (0.5, False, 0.0),  # beats none
        (0.8, False, 60.0),  # beats 0.7 and 0.6, ties two: (2 + 2/2) / 5
        (0.75, False, 40.0),
        (0.9, False, 90.0),  # beats four, ties one
        (0.8000001, False, 60.0),  # equal after rounding to 5 decimals
        (0.5, True, 100.0),  # lower is better: beats all
        (0.8, True, 40.0),  # beats 0.9, ties two: (1 + 2/2) / 5
        (0.95, True, 0.0),
    ],
)
def test_percentile_of_a_score(score: float, lower_is_better: bool, expected: float) -> None:
    assert leaderboard_percentile(score, BOARD, lower_is_better) == pytest.approx(expected)


def test_all_ties_is_the_middle() -> None:
    assert leaderboard_percentile(1.0, (1.0, 1.0, 1.0), lower_is_better=False) == 50.0


def test_empty_leaderboard_has_no_percentile() -> None:
    assert leaderboard_percentile(1.0, (), lower_is_better=False) is None
