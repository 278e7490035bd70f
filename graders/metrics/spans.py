"""Answer-span metrics: TensorFlow 2.0 Question Answering's micro F1 over long and short answers.

Each row is one answer slot (``<example>_long`` or ``<example>_short``). A prediction is a token
span ``start:end``, ``YES``, ``NO`` or blank (no answer); the answer cell lists every acceptable
answer, space-separated, blank when the question has none. :func:`span_rule` (run by
validation) rejects any other prediction with its row's id.
"""

from __future__ import annotations

import re

from pytest_mlebench.graders.messages import show_value
from pytest_mlebench.graders.metrics.base import Array, Columns, Metric, require_same_shape

SPAN = re.compile(r"(\d+):(\d+)")
WORDS = ("YES", "NO")


def span_f1(y_true: Columns, y_pred: Columns) -> float:
    """Kaggle's micro F1: ``2·TP / (2·TP + FP + FN)`` over every answer slot.

    TP: a prediction that is one of the acceptable answers; FP: a prediction that is not (where
    an answer exists or where none does); FN: a blank where an answer exists. A blank where no
    answer exists counts nowhere. 1 when there is nothing to find and nothing is predicted.
    """
    require_same_shape(y_true, y_pred, "span-f1")
    hits = wrong = missed = 0
    for acceptable, predicted in _slots(y_true.values(0), y_pred.values(0)):
        if predicted is None:
            missed += bool(acceptable)
        elif predicted in acceptable:
            hits += 1
        else:
            wrong += 1
    denominator = 2 * hits + wrong + missed
    return 2.0 * hits / denominator if denominator else 1.0


def span_accuracy(y_true: Columns, y_pred: Columns) -> float:
    """The original MLE-bench's number: the share of slots answered rightly, blanks included.

    Its grader gives scikit-learn's micro F1 one binary label per slot, which is accuracy: a
    blank where no answer exists counts as right (a true negative), which Kaggle's F1 ignores.
    """
    require_same_shape(y_true, y_pred, "span-f1")
    right = 0
    for acceptable, predicted in _slots(y_true.values(0), y_pred.values(0)):
        right += (predicted in acceptable) if predicted is not None else not acceptable
    return right / y_true.rows


def span_rule(y_true: Columns, y_pred: Columns) -> tuple[int, str] | None:
    """The first prediction that is not ``start:end``, ``YES``, ``NO`` or blank."""
    for row, cell in enumerate(y_pred.values(0)):
        text = str(cell).strip()
        if text and text not in WORDS and SPAN.fullmatch(text) is None:
            hint = " (upper case)" if text.upper() in WORDS else ""
            return row, (
                f"answer {show_value(text)} is not a token span 'start:end', YES or NO{hint}; "
                "leave it blank for no answer"
            )
    return None


Answer = tuple[int, int] | str


def _parse(text: str) -> Answer:
    span = SPAN.fullmatch(text)
    return (int(span.group(1)), int(span.group(2))) if span else text


def _slots(truths: Array, preds: Array) -> list[tuple[frozenset[Answer], Answer | None]]:
    slots = []
    for truth, pred in zip(truths, preds, strict=True):
        acceptable = frozenset(_parse(item) for item in str(truth).split())
        text = str(pred).strip()
        slots.append((acceptable, _parse(text) if text else None))
    return slots


DECLARATIONS = (
    Metric(
        name="span-f1",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=span_f1,
        description="micro F1 of predicted answer spans (start:end, YES, NO or blank)",
        arity="one",
        check_rows=span_rule,
    ),
    Metric(
        name="span-accuracy",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=span_accuracy,
        description="share of answer slots right, a blank with no answer counted (the original's)",
        arity="one",
        check_rows=span_rule,
    ),
)
"""The original MLE-bench's variant (``original_grader:`` of tensorflow2-question-answering)."""
