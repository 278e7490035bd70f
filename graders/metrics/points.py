"""Centre-in-box F1 of labelled points: kuzushiji-recognition's metric (the host's definition).

A prediction cell lists ``label x y`` triples (a character's Unicode code such as ``U+306F`` and
the point predicted as its centre); the answer cell lists ``label x y width height`` boxes; an
empty cell is nothing. Per page, each true box in its order takes the first prediction not yet
used whose label is the box's and whose point lies strictly inside it: a true positive; a box
left without one is a false negative, and every prediction left unused a false positive. The
score is ``2·P·R / (P + R)`` over the counts of all pages (0 when either is 0).
:func:`point_rule` (run by validation) names the first cell that is not whole triples of a
label and two finite numbers.
"""

from __future__ import annotations

import numpy as np

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.messages import show_value
from pytest_mlebench.graders.metrics.base import Columns, Metric, require_same_shape

Parsed = tuple[np.ndarray, np.ndarray]


def _parse(cell: object, width: int) -> Parsed:
    """Labels and an ``(n, width - 1)`` array of numbers; ``ValueError`` with the reason."""
    tokens = cell.split() if isinstance(cell, str) else []
    if len(tokens) % width:
        raise ValueError(f"has {len(tokens)} values, not whole groups of {width}")
    labels = np.array(tokens[0::width], dtype=object)
    try:
        numbers = np.array(
            [
                [float(token) for token in tokens[start + 1 : start + width]]
                for start in range(0, len(tokens), width)
            ],
            dtype=np.float64,
        ).reshape(-1, width - 1)
    except ValueError:
        raise ValueError("holds a coordinate that is not a number") from None
    if not np.isfinite(numbers).all():
        raise ValueError("holds a coordinate that is not a finite number")
    return labels, numbers


def point_rule(y_true: Columns, y_pred: Columns) -> tuple[int, str] | None:
    """The first prediction cell that is not whole ``label x y`` triples with finite numbers."""
    for row, cell in enumerate(y_pred.values(0)):
        try:
            _parse(cell, 3)
        except ValueError as error:
            return row, f"labels {show_value(str(cell))} {error} 'label x y'"
    return None


def page_counts(truth: Parsed, preds: Parsed) -> tuple[int, int, int]:
    """True positives, false positives and false negatives of one page."""
    true_labels, boxes = truth
    labels, points = preds
    unused = np.ones(len(labels), dtype=bool)
    hits = 0
    for label, (x, y, width, height) in zip(true_labels, boxes, strict=True):
        inside = (
            (points[:, 0] > x) & (points[:, 0] < x + width)
            & (points[:, 1] > y) & (points[:, 1] < y + height)
        )  # fmt: skip
        candidates = np.flatnonzero(inside & (labels == label) & unused)
        if candidates.size:
            unused[candidates[0]] = False
            hits += 1
    return hits, int(unused.sum()), len(true_labels) - hits


def centre_f1(y_true: Columns, y_pred: Columns) -> float:
    """Micro F1 over all pages of labelled centre points inside labelled true boxes."""
    require_same_shape(y_true, y_pred, "centre-f1")
    tp = fp = fn = 0
    for truth_cell, pred_cell in zip(y_true.values(0), y_pred.values(0), strict=True):
        try:
            truth = _parse(truth_cell, 5)
        except ValueError as error:
            raise GraderError(f"centre-f1: an answer cell {error}") from None
        hits, wrong, missed = page_counts(truth, _parse(pred_cell, 3))
        tp, fp, fn = tp + hits, fp + wrong, fn + missed
    if tp == 0:
        return 0.0
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    return 2 * precision * recall / (precision + recall)


DECLARATIONS = (
    Metric(
        name="centre-f1",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=centre_f1,
        description="micro F1 of labelled centre points inside labelled true boxes, one match each",
        arity="one",
        check_rows=point_rule,
    ),
)
