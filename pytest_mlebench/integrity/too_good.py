"""Too good to be true: a score past the best entry of the leaderboard, or a perfect score.

A published entry of the original's board reported a physically impossible score that nobody
flagged. A run whose score beats every entry of the competition's leaderboard, or reaches the
metric's declared perfect value (``perfect`` of :class:`~pytest_mlebench.graders.Metric`) where
the board's best does not, is far more likely an answers leak, a grader bug or a copied
submission than a breakthrough: it is flagged with the board's best beside it, and
``--mle-integrity strict`` withholds its medal until a person clears it (``mlebench integrity
clear``, :mod:`pytest_mlebench.integrity.clearance`). Pure: the claim is built from the grade
and the competition by whoever holds both.
"""

from __future__ import annotations

from dataclasses import dataclass

from pytest_mlebench.medals import SCORE_DECIMALS
from pytest_mlebench.records.verdict import Flag
from pytest_mlebench.values.integrity_policy import Policy


@dataclass(frozen=True)
class ScoreClaim:
    """A run's score beside its competition's leaderboard.

    Attributes:
        score: The run's score.
        board_best: The best entry of the competition's leaderboard (its first row).
        perfect: The metric's perfect value, ``None`` when it declares none.
        lower_is_better: The metric's declared direction.
    """

    score: float
    board_best: float
    perfect: float | None
    lower_is_better: bool


def score_claim(
    score: float | None, board: tuple[float, ...], perfect: float | None, lower_is_better: bool
) -> ScoreClaim | None:
    """The claim of a scored run against a non-empty ``board`` (best first), else ``None``."""
    if score is None or not board:
        return None
    return ScoreClaim(score, board[0], perfect, lower_is_better)


def _beats(score: float, other: float, lower_is_better: bool) -> bool:
    return score < other if lower_is_better else score > other


def too_good_flag(claim: ScoreClaim, policy: Policy) -> Flag | None:
    """The flag of a score that is too good to be true, or ``None``.

    The score is rounded to the medals' decimals first, as for medals and percentiles, so a
    score equal to the board's best never counts as beating it.
    """
    mine = round(claim.score, SCORE_DECIMALS)
    perfect = claim.perfect
    reaches_perfect = (
        perfect is not None
        and mine == perfect
        and _beats(perfect, claim.board_best, claim.lower_is_better)
    )
    if not reaches_perfect and not _beats(mine, claim.board_best, claim.lower_is_better):
        return None
    evidence = {
        "score": claim.score,
        "board_best": claim.board_best,
        "perfect": perfect,
        "lower_is_better": claim.lower_is_better,
    }
    if reaches_perfect:
        return Flag(
            "score",
            "perfect-score",
            policy.severity("score", "perfect_score"),
            f"score {claim.score:g} is the metric's perfect value; the leaderboard's best is "
            f"{claim.board_best:g}",
            evidence,
        )
    return Flag(
        "score",
        "beats-leaderboard",
        policy.severity("score", "beats_leaderboard"),
        f"score {claim.score:g} beats the leaderboard's best entry {claim.board_best:g}",
        evidence,
    )
