"""Submission validation and Kaggle metrics for MLE-bench competitions (no pytest imports).

``score_submission(submission, answers, spec)`` validates a submission CSV against the answers —
columns by name, ids as an exact set, rows aligned by id, values fit for the metric — and scores
it; ``validate_submission`` does the same checks without scoring. A bad submission never raises:
it gives an invalid :class:`ScoreResult` with a reason a person can act on.
"""

from __future__ import annotations

from pytest_mlebench.graders.errors import GraderError, UnknownMetricError
from pytest_mlebench.graders.metrics import METRICS, Columns, Metric, get_metric
from pytest_mlebench.graders.scoring import score_submission, validate_submission
from pytest_mlebench.graders.spec import ScoreResult, SubmissionSpec

__all__ = [
    "METRICS",
    "Columns",
    "GraderError",
    "Metric",
    "ScoreResult",
    "SubmissionSpec",
    "UnknownMetricError",
    "get_metric",
    "score_submission",
    "validate_submission",
]
