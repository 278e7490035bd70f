"""Scoring and validating submissions: the library's entry points.

Both functions run :func:`graders.validation.align_submission`; scoring then applies the metric.
A bad submission never raises — it comes back as an invalid :class:`~graders.spec.ScoreResult`
with a reason; a broken spec or answers file raises :class:`~graders.errors.GraderError`.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_mlebench.graders.errors import SubmissionRejected
from pytest_mlebench.graders.spec import ScoreResult, SubmissionSpec
from pytest_mlebench.graders.validation import align_submission

if TYPE_CHECKING:
    import pandas as pd


def score_submission(
    submission: Path | str, answers: Path | str | pd.DataFrame, spec: SubmissionSpec
) -> ScoreResult:
    """Validate a submission and score it with the spec's metric.

    Args:
        submission: Path of the submission CSV.
        answers: Path of the answers CSV, or the answers as a DataFrame.
        spec: What the submission must look like and how it is scored.

    Returns:
        A valid result with a finite score, or an invalid one with a one-line reason (this
        includes a metric that returns NaN or infinity).

    Raises:
        GraderError: The spec or the answers are broken (never the submission).
    """
    try:
        aligned = align_submission(submission, answers, spec)
    except SubmissionRejected as rejection:
        return ScoreResult.invalid(rejection.reason)
    score = float(aligned.metric.compute(aligned.y_true, aligned.y_pred, **spec.metric_params))
    if not math.isfinite(score):
        return ScoreResult.invalid(
            f"metric {aligned.metric.name!r} returned {score} for these predictions "
            "(for example a constant prediction it cannot score)"
        )
    return ScoreResult(valid=True, score=score)


def validate_submission(
    submission: Path | str, answers: Path | str | pd.DataFrame, spec: SubmissionSpec
) -> ScoreResult:
    """Check a submission the way :func:`score_submission` does, without computing a score.

    This is what the sandbox validator answers: valid or invalid with a reason, never a score.

    Raises:
        GraderError: The spec or the answers are broken (never the submission).
    """
    try:
        align_submission(submission, answers, spec)
    except SubmissionRejected as rejection:
        return ScoreResult.invalid(rejection.reason)
    return ScoreResult(valid=True)
