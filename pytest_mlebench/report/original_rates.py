"""Both any-medal rates, ours and the original MLE-bench's, where its grading differs. Pure.

A competition whose config declares ``original_grader:`` carries the original-compatible score and
medal in each grade (:mod:`pytest_mlebench.original`). Every other run counts the same medal on
both sides. The summary, the terminal table, the HTML page and Allure show the original's rate
beside ours only when the two differ, so a result reads against published MLE-bench numbers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.records.run_record import RunRecord


@dataclass(frozen=True)
class MedalRates:
    """Any-medal rates over the same runs, as we grade and as the original grades.

    Attributes:
        runs: Runs that count (ran, not ``infra``: the denominator of both rates).
        ours: Percentage with a medal by our grading.
        original: Percentage with a medal by the original's grading.
        competitions: The competitions among them that the original grades otherwise.
    """

    runs: int
    ours: float
    original: float
    competitions: tuple[str, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "any_medal": self.ours,
            "original_any_medal": self.original,
            "competitions": list(self.competitions),
        }

    def text(self) -> str:
        """``any medal 40.0 % here, 30.0 % as the original MLE-bench grades (ranzcr-…)``."""
        return (
            f"any medal {self.ours:.1f} % here, {self.original:.1f} % as the original MLE-bench "
            f"grades ({', '.join(self.competitions)} graded otherwise there; docs/mlebench.md)"
        )


def medal_rates(records: Sequence[RunRecord]) -> MedalRates | None:
    """Both rates over the runs that count (ran, not ``infra``); ``None`` when they are the same
    number."""
    done = [r for r in records if r.counted]
    if not done:
        return None
    ours = 100.0 * sum(1 for r in done if r.medal) / len(done)
    original = 100.0 * sum(1 for r in done if r.original_medal) / len(done)
    if ours == original:
        return None
    differing = sorted({r.competition_id for r in done if r.grade and r.grade.original_differs})
    return MedalRates(len(done), ours, original, tuple(differing))
