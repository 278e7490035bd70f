"""The probabilistic F1 of rsna-breast-cancer-detection: F1 with probabilities as soft counts.

With 0/1 answers ``y`` and probabilities ``p``: soft true positives ``Σ p·y``, precision
``Σ p·y / Σ p``, recall ``Σ p·y / Σ y``, and the score ``2·P·R / (P + R)`` (β = 1), as the
host's published metric. Where precision or recall is 0 — all predictions 0, or none of the
probability on a cancer — the score is 0: a valid, worst score, not an error.
"""

from __future__ import annotations

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import (
    Columns,
    Metric,
    require_binary,
    require_same_shape,
)


def probabilistic_f1(y_true: Columns, y_pred: Columns) -> float:
    """pF1 (β = 1) of one probability column against 0/1 answers; higher is better."""
    metric = "probabilistic-f1"
    require_same_shape(y_true, y_pred, metric)
    labels = y_true.float_column()
    require_binary(labels, y_true.names[0], metric)
    positives = float(labels.sum())
    if positives == 0:
        raise GraderError(f"{metric}: answer column {y_true.names[0]!r} has no positive row")
    probabilities = y_pred.float_column()
    soft_hits = float(probabilities @ labels)
    predicted = float(probabilities.sum())
    if soft_hits == 0 or predicted == 0:
        return 0.0
    precision, recall = soft_hits / predicted, soft_hits / positives
    return 2 * precision * recall / (precision + recall)


DECLARATIONS = (
    Metric(
        name="probabilistic-f1",
        lower_is_better=False,
        value_kind="probability",
        rows_sum_to_one=False,
        compute=probabilistic_f1,
        description="F1 with probabilities as soft counts (beta 1); 0 when nothing is predicted",
        arity="one",
    ),
)
