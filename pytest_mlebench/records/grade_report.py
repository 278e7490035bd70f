"""The grade of one submission: one value from the grader to every report.

:class:`GradeReport` holds what grading found — the score, whether a submission existed and was
valid (and why not), the :class:`~pytest_mlebench.medals.Award` it earned and the
:class:`~pytest_mlebench.medals.Thresholds` it was judged against — and nothing derived from those.
Run records store it in its own form (:meth:`GradeReport.to_dict`); mle-bench's flat 16-key
form is made only by :mod:`pytest_mlebench.report.mlebench_compat`. Reading the flat form back
(records of version 1) happens here, in :func:`_from_flat`, and nowhere else.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, replace
from typing import Any

from pytest_mlebench.medals import MEDALS, NO_AWARD, Award, Medal, Thresholds, medal_for


@dataclass(frozen=True)
class OriginalGrade:
    """What the original MLE-bench's grader gives a file, where it grades otherwise than we do.

    Attributes:
        grader: What it computes, e.g. ``mean-column-roc-auc over 9 columns``.
        score: The original-compatible score; ``None`` when the original would not score it.
        medal: The medal that score earns on the same leaderboard, by the same rule.
    """

    grader: str
    score: float | None
    medal: Medal | None

    def __post_init__(self) -> None:
        if self.medal is not None and self.score is None:
            raise ValueError("an original medal needs an original-compatible score")


@dataclass(frozen=True)
class GradeReport:
    """What one submission earned.

    Attributes:
        competition_id: The competition it was graded for.
        score: The metric's value; ``None`` unless the submission is valid.
        award: The medal (or none) and the above-median flag; nothing for an invalid submission
            or for a competition without a leaderboard.
        thresholds: The scores needed for each medal and the median; ``None`` when the
            competition ships no leaderboard ("no leaderboard: no medal").
        lower_is_better: The metric's declared direction.
        percentile: The share (0-100) of the leaderboard the score beats, ties counting half
            (:mod:`pytest_mlebench.percentile`); ``None`` when invalid or without a leaderboard.
        submission_exists: Whether a submission file was there to grade.
        valid_submission: Whether it passed validation and got a score.
        invalid_reason: Why it is invalid (``None`` when valid), in words a person can act on.
        created_at: When it was graded (ISO 8601, UTC).
        submission_path: The file that was graded.
        original: The original-compatible score and medal, where the original MLE-bench
            grades the competition otherwise (:mod:`pytest_mlebench.original`); ``None`` where
            it grades as we do.
    """

    competition_id: str
    score: float | None
    award: Award
    thresholds: Thresholds | None
    lower_is_better: bool
    submission_exists: bool
    valid_submission: bool
    invalid_reason: str | None
    created_at: str
    submission_path: str
    percentile: float | None = None
    original: OriginalGrade | None = None

    def __post_init__(self) -> None:
        earned = self.award != NO_AWARD or self.percentile is not None
        if not self.valid_submission and (self.score is not None or earned):
            raise ValueError("an invalid submission has no score and earns nothing")
        if self.valid_submission and not self.submission_exists:
            raise ValueError("a submission that does not exist cannot be valid")
        if self.thresholds is None and earned:
            raise ValueError("without a leaderboard there is no medal and no percentile")
        if self.thresholds is not None and self.thresholds.lower_is_better != self.lower_is_better:
            raise ValueError("the thresholds and the grade disagree on the metric's direction")

    @property
    def has_leaderboard(self) -> bool:
        """Whether the competition had a leaderboard to award medals from."""
        return self.thresholds is not None

    @classmethod
    def scored(
        cls,
        competition_id: str,
        score: float,
        thresholds: Thresholds | None,
        *,
        lower_is_better: bool,
        percentile: float | None = None,
        submission_path: str,
        created_at: str,
    ) -> GradeReport:
        """A valid submission's grade: the award follows from ``score`` and ``thresholds``."""
        return cls(
            competition_id=competition_id,
            score=score,
            award=medal_for(score, thresholds) if thresholds is not None else NO_AWARD,
            thresholds=thresholds,
            lower_is_better=lower_is_better,
            percentile=percentile if thresholds is not None else None,
            submission_exists=True,
            valid_submission=True,
            invalid_reason=None,
            created_at=created_at,
            submission_path=submission_path,
        )

    @classmethod
    def invalid(
        cls,
        competition_id: str,
        reason: str,
        thresholds: Thresholds | None,
        *,
        lower_is_better: bool,
        submission_exists: bool,
        submission_path: str,
        created_at: str,
    ) -> GradeReport:
        """The grade of a missing or invalid submission: no score, no award, and why."""
        return cls(
            competition_id=competition_id,
            score=None,
            award=NO_AWARD,
            thresholds=thresholds,
            lower_is_better=lower_is_better,
            submission_exists=submission_exists,
            valid_submission=False,
            invalid_reason=reason,
            created_at=created_at,
            submission_path=submission_path,
        )

    @property
    def medal(self) -> Medal | None:
        return self.award.medal

    @property
    def original_differs(self) -> bool:
        """Whether the original MLE-bench grades this competition otherwise than we do."""
        return self.original is not None

    @property
    def original_grader(self) -> str | None:
        return None if self.original is None else self.original.grader

    @property
    def original_score(self) -> float | None:
        return None if self.original is None else self.original.score

    @property
    def original_medal(self) -> Medal | None:
        return None if self.original is None else self.original.medal

    def with_original(self, grader: str, score: float | None) -> GradeReport:
        """This grade with the original's score beside it and the medal that score earns on the
        same leaderboard by the same rule (``score`` ``None``: the original would not score it)."""
        medal = None
        if score is not None and self.thresholds is not None:
            medal = medal_for(score, self.thresholds).medal
        return replace(self, original=OriginalGrade(grader=grader, score=score, medal=medal))

    def to_dict(self) -> dict[str, Any]:
        """The form run records store (``award`` and ``thresholds`` as nested objects)."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GradeReport:
        """Read :meth:`to_dict`'s form, or the flat 16-key form of records of version 1.

        Raises:
            ValueError: When ``data`` is neither form or a value is of the wrong kind.
        """
        try:
            if "award" in data:
                return _from_model_form(data)
            if "median_threshold" in data:
                return _from_flat(data)
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"malformed grade report ({type(exc).__name__}: {exc})") from None
        raise ValueError("not a grade report: it has neither an award nor medal thresholds")


def _from_model_form(data: Mapping[str, Any]) -> GradeReport:
    award, limits = data["award"], data["thresholds"]
    lower = bool(
        data["lower_is_better"] if "lower_is_better" in data else limits["lower_is_better"]
    )
    return _report(
        data,
        Award(medal=_medal(award["medal"]), above_median=bool(award["above_median"])),
        None if limits is None else _thresholds(limits, "", lower),
        lower,
    )


def _from_flat(data: Mapping[str, Any]) -> GradeReport:
    """mle-bench's flat keys (one boolean per medal) back into the model."""
    medal = next((m for m in MEDALS if data.get(f"{m}_medal")), None)
    lower = bool(data["is_lower_better"])
    no_board = data["median_threshold"] is None
    return _report(
        data,
        Award(medal=medal, above_median=bool(data.get("above_median"))),
        None if no_board else _thresholds(data, "_threshold", lower),
        lower,
    )


def _report(
    data: Mapping[str, Any], award: Award, thresholds: Thresholds | None, lower_is_better: bool
) -> GradeReport:
    return GradeReport(
        competition_id=str(data["competition_id"]),
        score=_optional_float(data["score"]),
        award=award,
        thresholds=thresholds,
        lower_is_better=lower_is_better,
        percentile=_optional_float(data.get("percentile")),
        submission_exists=bool(data["submission_exists"]),
        valid_submission=bool(data["valid_submission"]),
        invalid_reason=_optional_str(data.get("invalid_reason")),
        created_at=str(data["created_at"]),
        submission_path=str(data["submission_path"]),
        original=_original(data.get("original")),
    )


def _original(value: Any) -> OriginalGrade | None:
    if value is None:
        return None
    return OriginalGrade(
        grader=str(value["grader"]),
        score=_optional_float(value["score"]),
        medal=_medal(value["medal"]),
    )


def _thresholds(values: Mapping[str, Any], suffix: str, lower_is_better: bool) -> Thresholds:
    """Thresholds from keys ``<medal>`` (our form) or ``<medal>_threshold`` (mle-bench's)."""
    return Thresholds.from_medals(
        {medal: float(values[f"{medal}{suffix}"]) for medal in MEDALS},
        median=float(values[f"median{suffix}"]),
        lower_is_better=lower_is_better,
    )


def _medal(value: Any) -> Medal | None:
    if value is None:
        return None
    for medal in MEDALS:
        if value == medal:
            return medal
    raise ValueError(f"unknown medal {value!r} (known: {', '.join(MEDALS)})")


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


def _optional_str(value: Any) -> str | None:
    return None if value is None else str(value)
