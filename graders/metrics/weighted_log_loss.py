"""The study-weighted log loss of rsna-2022-cervical-spine-fracture-detection.

Each study has eight binary targets: ``patient_overall`` and the vertebrae ``C1`` … ``C7``.
Each target's log loss (probabilities clipped to ``[1e-15, 1 − 1e-15]``) is weighted by its kind
and label, as the competition's evaluation states: ``patient_overall`` 7 when negative and 14
when positive, a vertebra 1 and 2. A study's loss is its weighted sum divided by the sum of its
weights; the score is the mean over studies.

The answers' last column (arity ``grouped``) names each row as ``<study>_<target>``, the form of
the competition's ``row_id``: the part after the last ``_`` that is a vertebra (``C1`` …) or the
suffix ``patient_overall`` gives the weight, the part before it the study.
"""

from __future__ import annotations

import numpy as np

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Columns, Metric, require_binary

EPSILON = 1e-15
"""Probabilities are clipped to [ε, 1 − ε] before the logarithm."""
OVERALL = "patient_overall"
VERTEBRAE = tuple(f"C{number}" for number in range(1, 8))
WEIGHTS = {OVERALL: (7.0, 14.0), **{vertebra: (1.0, 2.0) for vertebra in VERTEBRAE}}
"""Weight of each target when its answer is (negative, positive)."""


def _split_key(key: str, metric: str) -> tuple[str, str]:
    for target in WEIGHTS:
        suffix = f"_{target}"
        if key.endswith(suffix) and len(key) > len(suffix):
            return key[: -len(suffix)], target
    raise GraderError(
        f"{metric}: answer row {key!r} is not '<study>_<target>' with a target of "
        f"{', '.join(WEIGHTS)}"
    )


def study_weighted_log_loss(y_true: Columns, y_pred: Columns) -> float:
    """Mean over studies of the weighted mean log loss of their targets; lower is better."""
    metric = "study-weighted-log-loss"
    if y_true.shape != (y_pred.rows, 2) or y_pred.shape[1] != 1 or y_pred.rows == 0:
        raise GraderError(
            f"{metric}: needs one probability column against an answer column and a "
            f"'<study>_<target>' column; got shapes {y_pred.shape} and {y_true.shape}"
        )
    labels = y_true.float_column(0)
    require_binary(labels, y_true.names[0], metric)
    keys = [_split_key(str(key), metric) for key in y_true.values(1)]
    _, study = np.unique(np.array([key[0] for key in keys], dtype=str), return_inverse=True)
    negative = np.array([WEIGHTS[key[1]][0] for key in keys])
    positive = np.array([WEIGHTS[key[1]][1] for key in keys])
    weights = np.where(labels == 1, positive, negative)
    p = np.clip(y_pred.float_column(0), EPSILON, 1 - EPSILON)
    losses = -(labels * np.log(p) + (1 - labels) * np.log(1 - p))
    per_study = np.bincount(study, weights=weights * losses) / np.bincount(study, weights=weights)
    return float(np.mean(per_study))


DECLARATIONS = (
    Metric(
        name="study-weighted-log-loss",
        lower_is_better=True,
        value_kind="probability",
        rows_sum_to_one=False,
        compute=study_weighted_log_loss,
        description="log loss weighted 7/14 (overall) and 1/2 (vertebra), per study, averaged",
        arity="grouped",
    ),
)
