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
from dataclasses import asdict, dataclass
from typing import Any

from pytest_mlebench.medals import MEDALS, NO_AWARD, Award, Medal, Thresholds, medal_for


@dataclass(frozen=True)
class GradeReport:
    """What one submission earned.

    Attributes:
        competition_id: The competition it was graded for.
        score: The metric's value; ``None`` unless the submission is valid.
        award: The medal (or none) and the above-median flag; nothing for an invalid submission.
        thresholds: The scores needed for each medal, the median and the metric's direction.
        submission_exists: Whether a submission file was there to grade.
        valid_submission: Whether it passed validation and got a score.
        invalid_reason: Why it is invalid (``None`` when valid), in words a person can act on.
        created_at: When it was graded (ISO 8601, UTC).
        submission_path: The file that was graded.
    """

    competition_id: str
    score: float | None
    award: Award
    thresholds: Thresholds
    submission_exists: bool
    valid_submission: bool
    invalid_reason: str | None
    created_at: str
    submission_path: str

    def __post_init__(self) -> None:
        if not self.valid_submission and (self.score is not None or self.award != NO_AWARD):
            raise ValueError("an invalid submission has no score and earns nothing")
        if self.valid_submission and not self.submission_exists:
            raise ValueError("a submission that does not exist cannot be valid")

    @classmethod
    def scored(
        cls,
        competition_id: str,
        score: float,
        thresholds: Thresholds,
        *,
        submission_path: str,
        created_at: str,
    ) -> GradeReport:
        """A valid submission's grade: the award follows from ``score`` and ``thresholds``."""
        return cls(
            competition_id=competition_id,
            score=score,
            award=medal_for(score, thresholds),
            thresholds=thresholds,
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
        thresholds: Thresholds,
        *,
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
            submission_exists=submission_exists,
            valid_submission=False,
            invalid_reason=reason,
            created_at=created_at,
            submission_path=submission_path,
        )

    @property
    def medal(self) -> Medal | None:
        return self.award.medal

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
    return _report(
        data,
        Award(medal=_medal(award["medal"]), above_median=bool(award["above_median"])),
        _thresholds(limits, "", limits["lower_is_better"]),
    )


def _from_flat(data: Mapping[str, Any]) -> GradeReport:
    """mle-bench's flat keys (one boolean per medal) back into the model."""
    medal = next((m for m in MEDALS if data.get(f"{m}_medal")), None)
    return _report(
        data,
        Award(medal=medal, above_median=bool(data.get("above_median"))),
        _thresholds(data, "_threshold", data["is_lower_better"]),
    )


def _report(data: Mapping[str, Any], award: Award, thresholds: Thresholds) -> GradeReport:
    return GradeReport(
        competition_id=str(data["competition_id"]),
        score=_optional_float(data["score"]),
        award=award,
        thresholds=thresholds,
        submission_exists=bool(data["submission_exists"]),
        valid_submission=bool(data["valid_submission"]),
        invalid_reason=_optional_str(data.get("invalid_reason")),
        created_at=str(data["created_at"]),
        submission_path=str(data["submission_path"]),
    )


def _thresholds(values: Mapping[str, Any], suffix: str, lower_is_better: Any) -> Thresholds:
    """Thresholds from keys ``<medal>`` (our form) or ``<medal>_threshold`` (mle-bench's)."""
    return Thresholds.from_medals(
        {medal: float(values[f"{medal}{suffix}"]) for medal in MEDALS},
        median=float(values[f"median{suffix}"]),
        lower_is_better=bool(lower_is_better),
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
