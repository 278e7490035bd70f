"""Text-overlap metrics: the mean word-level Jaccard similarity of predicted and true spans.

Words are what ``str.split()`` finds in the lower-cased text (Unicode whitespace separates them,
so Devanagari and Tamil text split as Kaggle's own code splits it); each side is a set, so the
order and repetition of words do not count.
"""

from __future__ import annotations

from pytest_mlebench.graders.metrics.base import Array, Columns, Metric, require_same_shape


def word_jaccard(y_true: Columns, y_pred: Columns) -> float:
    """Mean over rows of ``|A ∩ B| / |A ∪ B|`` for the word sets of prediction and answer.

    Kaggle's formula (tweet-sentiment-extraction, chaii-hindi-and-tamil-question-answering).
    Where both sets are empty, the prediction equals the answer and the row scores 1; Kaggle's
    formula divides by zero there.
    """
    require_same_shape(y_true, y_pred, "word-jaccard")
    truths, preds = _word_sets(y_true.values(0)), _word_sets(y_pred.values(0))
    total = 0.0
    for truth, pred in zip(truths, preds, strict=True):
        union = len(truth | pred)
        total += len(truth & pred) / union if union else 1.0
    return total / len(truths)


def _word_sets(cells: Array) -> list[frozenset[str]]:
    return [frozenset(str(cell).lower().split()) for cell in cells]


DECLARATIONS = (
    Metric(
        name="word-jaccard",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=word_jaccard,
        description="mean over rows of the Jaccard similarity of lower-cased word sets",
        arity="one",
    ),
)
