"""Kaggle medal thresholds and awards, as pure functions over a leaderboard's scores.

The rules follow Kaggle's progression system (see ``docs/medals.md``): with ``N`` leaderboard rows,
best first, and ``pos(k)`` the score in row ``k`` (1-based):

======== ======================= ======================= =======================
N        gold                    silver                  bronze
======== ======================= ======================= =======================
1–99     pos(max(1, ⌊0.1N⌋))      pos(max(1, ⌊0.2N⌋))      pos(max(1, ⌊0.4N⌋))
100–249  pos(10)                 pos(max(1, ⌊0.2N⌋))      pos(max(1, ⌊0.4N⌋))
250–999  pos(10 + ⌊0.002N⌋)      pos(50)                 pos(100)
≥ 1000   pos(10 + ⌊0.002N⌋)      pos(max(1, ⌊0.05N⌋))     pos(max(1, ⌊0.1N⌋))
======== ======================= ======================= =======================

A score equal to a threshold earns it; tiers are exclusive; ``above_median`` is strict.
The score is rounded to 5 decimals and then compared with the thresholds as the leaderboard
gives them, unrounded: that is the original MLE-bench's rule, so the same score earns the same
medal there and here. (On aptos2019's 6-decimal silver threshold 0.919654, a score in
[0.919645, 0.919655) rounds to 0.91965 and earns bronze.)
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

# The one declaration of the medal names, best first; every other module uses these two names.
Medal = Literal["gold", "silver", "bronze"]
MEDALS: tuple[Medal, ...] = get_args(Medal)
SCORE_DECIMALS = 5


@dataclass(frozen=True)
class Thresholds:
    """Scores needed for each medal and the leaderboard median."""

    gold: float
    silver: float
    bronze: float
    median: float
    lower_is_better: bool

    @classmethod
    def from_medals(
        cls, by_medal: Mapping[Medal, float], median: float, lower_is_better: bool
    ) -> Thresholds:
        """Thresholds from one score per medal name."""
        return cls(
            gold=by_medal["gold"],
            silver=by_medal["silver"],
            bronze=by_medal["bronze"],
            median=median,
            lower_is_better=lower_is_better,
        )

    def of(self, medal: Medal) -> float:
        """The score needed for ``medal``."""
        value: float = getattr(self, medal)
        return value


@dataclass(frozen=True)
class Award:
    """What a score earns against :class:`Thresholds`."""

    medal: Medal | None
    above_median: bool

    @property
    def any_medal(self) -> bool:
        return self.medal is not None

    def reaches(self, wanted: Medal) -> bool:
        """Whether the medal earned is ``wanted`` or a better one."""
        return self.medal is not None and MEDALS.index(self.medal) <= MEDALS.index(wanted)


NO_AWARD = Award(medal=None, above_median=False)


def medal_ranks(n: int) -> tuple[int, int, int]:
    """1-based leaderboard rows whose scores are the gold, silver and bronze thresholds."""
    if n < 1:
        raise ValueError("a leaderboard needs at least one row")
    # Integer arithmetic: float products such as 0.002 * n can land just below a whole number.
    if n < 100:
        return max(1, n // 10), max(1, n * 2 // 10), max(1, n * 4 // 10)
    if n < 250:
        return 10, max(1, n * 2 // 10), max(1, n * 4 // 10)
    if n < 1000:
        return 10 + n * 2 // 1000, 50, 100
    return 10 + n * 2 // 1000, max(1, n * 5 // 100), max(1, n // 10)


def thresholds_for(scores: Sequence[float], lower_is_better: bool) -> Thresholds:
    """Thresholds from leaderboard scores ordered best first."""
    gold, silver, bronze = medal_ranks(len(scores))
    return Thresholds(
        gold=float(scores[gold - 1]),
        silver=float(scores[silver - 1]),
        bronze=float(scores[bronze - 1]),
        median=float(statistics.median(scores)),
        lower_is_better=lower_is_better,
    )


def _at_least_as_good(score: float, threshold: float, lower_is_better: bool) -> bool:
    score = round(score, SCORE_DECIMALS)  # the score only: the threshold stays as on the board
    return score <= threshold if lower_is_better else score >= threshold


def _better(score: float, threshold: float, lower_is_better: bool) -> bool:
    score = round(score, SCORE_DECIMALS)
    return score < threshold if lower_is_better else score > threshold


def medal_for(score: float, thresholds: Thresholds) -> Award:
    """The medal (if any) and above-median flag a score earns."""
    lower = thresholds.lower_is_better
    medal = next((m for m in MEDALS if _at_least_as_good(score, thresholds.of(m), lower)), None)
    return Award(medal=medal, above_median=_better(score, thresholds.median, lower))
