"""Leaderboard percentile: the continuous companion of the medal. Pure.

A medal moves in three steps and saturates; the percentile says where a score lands among the
leaderboard's entries: the percentage of entries it beats, ties counting half (the mid-rank
convention), so 100 beats every entry, 0 beats none, and a score equal to every entry is 50.
The score is rounded to the medals' :data:`~pytest_mlebench.medals.SCORE_DECIMALS` and the entries
are taken as the board gives them, as for medals, so a score that earns a threshold's medal by
equality also ties that entry here.
"""

from __future__ import annotations

from collections.abc import Sequence

from pytest_mlebench.medals import SCORE_DECIMALS


def leaderboard_percentile(
    score: float, leaderboard: Sequence[float], lower_is_better: bool
) -> float | None:
    """The percentage (0-100) of ``leaderboard`` entries that ``score`` beats; ties count half.

    Args:
        score: The run's score.
        leaderboard: The leaderboard's scores, in any order.
        lower_is_better: The metric's declared direction.

    Returns:
        The percentile, or ``None`` when the leaderboard is empty.
    """
    if not leaderboard:
        return None
    mine = round(score, SCORE_DECIMALS)
    beaten = tied = 0
    for entry in leaderboard:
        if mine == entry:
            tied += 1
        elif (mine < entry) == lower_is_better:
            beaten += 1
    return 100.0 * (beaten + tied / 2) / len(leaderboard)
