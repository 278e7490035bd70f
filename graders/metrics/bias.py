"""Jigsaw's unintended-bias metric: overall ROC AUC blended with bias AUCs over identity groups.

The answers are one toxicity column followed by one column per identity (each the share of
raters who judged the comment toxic, or that it mentions the identity); a value of 0.5 or more
makes the comment toxic, or a member of the identity's subgroup — the competition's rule. The
prediction is one score column (only its order matters). For each identity three AUCs are taken:
the *subgroup* AUC on the comments that mention it; *BPSN* (background positive, subgroup
negative) on its non-toxic comments with the toxic comments that do not mention it; *BNSP* on its
toxic comments with the non-toxic ones that do not. Each of the three is summarised over the
identities by a power mean with ``p = −5`` (dominated by the worst identity), and

    score = w · AUC_overall + w · (M_p(subgroup) + M_p(BPSN) + M_p(BNSP)),   w = 0.25.

:func:`bias_auc` scores the predictions as Kaggle does (continuous); :func:`binarised_bias_auc`
reproduces the original MLE-bench's grader, which first turns every prediction into 0 or 1 at
0.5, so that every AUC is one of a two-point curve.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Columns, FloatArray, Metric
from pytest_mlebench.graders.metrics.probabilistic import binary_auc

POWER = -5.0
"""The exponent of the power mean over identities."""
WEIGHT = 0.25
"""The weight of the overall AUC and of each of the three bias means."""
THRESHOLD = 0.5
"""A toxicity or identity share at or above this is toxic, or in the subgroup."""
NAME = "jigsaw-bias-auc"

BoolArray = npt.NDArray[np.bool_]


def bias_auc(y_true: Columns, y_pred: Columns) -> float:
    """Kaggle's score of continuous predictions (see the module docstring)."""
    return _score(y_true, y_pred.float_column())


def binarised_bias_auc(y_true: Columns, y_pred: Columns) -> float:
    """The original MLE-bench's number: predictions become 1 at or above 0.5, else 0, first."""
    scores = (y_pred.float_column() >= THRESHOLD).astype(np.float64)
    return _score(y_true, scores)


def _score(y_true: Columns, scores: FloatArray) -> float:
    if len(y_true.names) < 2:
        raise GraderError(f"{NAME}: answers need a toxicity column and identity columns")
    if scores.size != y_true.rows or y_true.rows == 0:
        raise GraderError(f"{NAME}: {y_true.rows} answer rows for {scores.size} predictions")
    toxic = y_true.float_column(0) >= THRESHOLD
    overall = _auc(toxic, scores, "all comments")
    per_kind: list[list[float]] = [[], [], []]
    for position, identity in enumerate(y_true.names[1:], start=1):
        member = y_true.float_column(position) >= THRESHOLD
        bpsn = (member & ~toxic) | (~member & toxic)
        bnsp = (member & toxic) | (~member & ~toxic)
        subsets = (member, bpsn, bnsp)
        for kind, (label, rows) in enumerate(zip(_KINDS, subsets, strict=True)):
            per_kind[kind].append(_auc(toxic[rows], scores[rows], f"{label} of {identity!r}"))
    means = [_power_mean(np.asarray(values)) for values in per_kind]
    return WEIGHT * overall + WEIGHT * sum(means)


_KINDS = ("subgroup", "BPSN", "BNSP")


def _auc(toxic: BoolArray, scores: FloatArray, subset: str) -> float:
    positives = int(np.count_nonzero(toxic))
    if positives in (0, toxic.size):
        raise GraderError(
            f"{NAME}: the {subset} comments are all toxic or all non-toxic; no AUC is defined"
        )
    return binary_auc(toxic.astype(np.float64), scores)


def _power_mean(values: FloatArray) -> float:
    """``(mean(v^p))^(1/p)``; 0 when a value is 0 (the limit for a negative ``p``)."""
    if (values == 0.0).any():
        return 0.0
    return float(np.mean(values**POWER) ** (1.0 / POWER))


DECLARATIONS = (
    Metric(
        name="jigsaw-bias-auc",
        lower_is_better=False,
        value_kind="real",
        rows_sum_to_one=False,
        compute=bias_auc,
        description="overall ROC AUC blended with power means of identity-group bias AUCs",
        arity="described",
    ),
    Metric(
        name="binarised-bias-auc",
        lower_is_better=False,
        value_kind="real",
        rows_sum_to_one=False,
        compute=binarised_bias_auc,
        description="jigsaw-bias-auc of predictions first cut to 0 or 1 at 0.5 (the original's)",
        arity="described",
    ),
)
"""The original MLE-bench's variant (``original_grader:`` of jigsaw-unintended-bias)."""
