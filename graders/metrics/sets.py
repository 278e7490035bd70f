"""F1 scores of predicted label sets: per-row mean F1 (Kaggle's Mean F-score) and micro F1.

Each cell is a space-separated set of labels (tags, attribute ids, disease names); order and
repetition do not count, and an empty cell is the empty set. :func:`known_label_micro_f1` is the
original MLE-bench's variant, which first drops every predicted label that no answer row holds.
"""

from __future__ import annotations

from collections.abc import Iterator

from pytest_mlebench.graders.metrics.base import Array, Columns, Metric, require_same_shape


def mean_f1(y_true: Columns, y_pred: Columns) -> float:
    """Mean over rows of ``2·|A ∩ B| / (|A| + |B|)`` (precision and recall of one row's labels).

    Kaggle's Mean F-score. A row with both sets empty scores 1, one with only one empty 0.
    """
    require_same_shape(y_true, y_pred, "mean-f1")
    total = 0.0
    for truth, pred in _pairs(y_true, y_pred):
        size = len(truth) + len(pred)
        total += 2.0 * len(truth & pred) / size if size else 1.0
    return total / y_true.rows


def micro_f1(y_true: Columns, y_pred: Columns) -> float:
    """``2·Σ|A ∩ B| / (Σ|A| + Σ|B|)``: F1 over every (row, label) pair at once.

    Every predicted label counts, so a label that is in no answer is a false positive. 0 when
    there are no labels on either side.
    """
    require_same_shape(y_true, y_pred, "micro-f1")
    return _micro(_pairs(y_true, y_pred))


def known_label_micro_f1(y_true: Columns, y_pred: Columns) -> float:
    """The original MLE-bench's micro F1: predicted labels absent from every answer are dropped.

    Its grader binarises both sides with scikit-learn's ``MultiLabelBinarizer`` over the answers'
    labels, which ignores any other label, so such a prediction is neither a false positive nor
    anything else. Otherwise as :func:`micro_f1`.
    """
    require_same_shape(y_true, y_pred, "micro-f1")
    pairs = list(_pairs(y_true, y_pred))
    known = frozenset().union(*(truth for truth, _ in pairs))
    return _micro((truth, pred & known) for truth, pred in pairs)


def _micro(pairs: Iterator[tuple[frozenset[str], frozenset[str]]]) -> float:
    hits = 0
    size = 0
    for truth, pred in pairs:
        hits += len(truth & pred)
        size += len(truth) + len(pred)
    return 2.0 * hits / size if size else 0.0


def _pairs(y_true: Columns, y_pred: Columns) -> Iterator[tuple[frozenset[str], frozenset[str]]]:
    truths: Array = y_true.values(0)
    preds: Array = y_pred.values(0)
    for truth, pred in zip(truths, preds, strict=True):
        yield frozenset(str(truth).split()), frozenset(str(pred).split())


DECLARATIONS = (
    Metric(
        name="mean-f1",
        perfect=1.0,
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=mean_f1,
        description="mean over rows of the F1 of the predicted against the true label set",
        arity="one",
    ),
    Metric(
        name="micro-f1",
        perfect=1.0,
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=micro_f1,
        description="F1 over all (row, label) pairs of space-separated label sets",
        arity="one",
    ),
    Metric(
        name="known-label-micro-f1",
        perfect=1.0,
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=known_label_micro_f1,
        description="micro F1 of label sets, labels in no answer dropped (the original's)",
        arity="one",
    ),
)
"""The original MLE-bench's variant (``original_grader:`` of facebook-recruiting-iii,
plant-pathology-2021 and imet-2020)."""
