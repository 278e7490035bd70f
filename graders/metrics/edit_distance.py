"""Edit-distance metrics: one Levenshtein core and the two scores built on it.

The core, :func:`levenshtein_distances`, gives the Levenshtein distance (insertions, deletions
and substitutions, each costing 1) of each answer with the prediction of the same row, computed
by ``rapidfuzz``'s C++ implementation over whole columns (bms-molecular-translation grades about
1.6 million InChI strings). Two scores wrap it:

``mean-levenshtein``
    The mean over rows of the character distance between the predicted and the true text
    (billion-word-imputation's sentences, bms-molecular-translation's InChI strings).
``sequence-levenshtein-rate``
    The total distance between predicted and true space-separated token sequences (each token
    one symbol: ``"12 3"`` is two gestures, not four characters) divided by the total number of
    true tokens (multi-modal-gesture-recognition: gesture errors per true gesture).

Both are lower-is-better and read text labels; an empty prediction is invalid
(:func:`require_filled_text`), because a CSV cell cannot tell an empty answer from a missing one.
A sequence token that is not an integer is invalid too (:func:`require_integer_tokens`), as in
the original grader.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import numpy as np
import numpy.typing as npt
from rapidfuzz import process
from rapidfuzz.distance import Levenshtein

from pytest_mlebench.graders.errors import GraderError, SubmissionRejected
from pytest_mlebench.graders.messages import count, show_value
from pytest_mlebench.graders.metrics.base import Array, Columns, Metric, require_same_shape

IntArray = npt.NDArray[np.int64]


def levenshtein_distances(
    truth: Sequence[str] | Sequence[Sequence[str]],
    pred: Sequence[str] | Sequence[Sequence[str]],
) -> IntArray:
    """The Levenshtein distance of ``truth[i]`` and ``pred[i]`` for every ``i``.

    Items are strings (distance over characters) or sequences of tokens (distance over tokens);
    both sides must have the same length.
    """
    if len(truth) != len(pred):
        raise GraderError(f"edit distance: {len(truth)} answers for {len(pred)} predictions")
    if not len(truth):
        return np.zeros(0, dtype=np.int64)
    distances = process.cpdist(truth, pred, scorer=Levenshtein.distance, dtype=np.int64)
    return np.asarray(distances, dtype=np.int64)


BLOCK_ROWS = 65_536
"""Rows per call of the distance: rapidfuzz copies its inputs into its own buffers, so whole
columns of 1.6 million strings cost hundreds of megabytes more than blocks do."""


def mean_levenshtein(y_true: Columns, y_pred: Columns) -> float:
    """Mean over rows of the character Levenshtein distance of prediction and answer."""
    require_same_shape(y_true, y_pred, "mean-levenshtein")
    rows = y_true.rows
    if rows == 0:
        return float("nan")  # the mean of nothing, as numpy's mean of an empty array
    total = 0
    pairs = zip(_text_blocks(y_true, 0), _text_blocks(y_pred, 0), strict=True)
    for truth, pred in pairs:
        total += int(levenshtein_distances(truth, pred).sum())
    return total / rows


def sequence_levenshtein_rate(y_true: Columns, y_pred: Columns) -> float:
    """Σ token Levenshtein distance / Σ true tokens, over space-separated token sequences."""
    require_same_shape(y_true, y_pred, "sequence-levenshtein-rate")
    truth = [text.split() for text in _texts(y_true.values(0))]
    tokens = sum(map(len, truth))
    if tokens == 0:
        raise GraderError("sequence-levenshtein-rate: the answers hold no tokens at all")
    pred = [[_as_number(token) for token in text.split()] for text in _texts(y_pred.values(0))]
    truth = [[_as_number(token) for token in tokens_of_row] for tokens_of_row in truth]
    return float(levenshtein_distances(truth, pred).sum()) / tokens


def _as_number(token: str) -> str:
    """An integer token in one spelling (``+2`` and ``02`` are gesture 2, as the original reads
    them); any other token unchanged."""
    return str(int(token)) if INTEGER_TOKEN.fullmatch(token) else token


def require_filled_text(y_pred: Columns) -> None:
    """Reject predictions with an empty (or blank) cell: every row needs a text.

    Raises:
        SubmissionRejected: A target column has an empty value.
    """
    for position, name in enumerate(y_pred.names):
        empty = sum(
            sum(1 for text in texts if not text.strip()) for texts in _text_blocks(y_pred, position)
        )
        if empty:
            raise SubmissionRejected(
                f"column {show_value(name)} has {count(empty, 'empty value')} (an empty "
                f"cell reads as a missing prediction); write a prediction in every row, e.g. "
                f"the sample submission's"
            )


INTEGER_TOKEN = re.compile(r"[+-]?[0-9]+")


def require_integer_tokens(y_pred: Columns) -> None:
    """Reject a sequence prediction with a token that is not an integer (``x``, ``1.0``), as the
    original grader does: such a token would count as a wrong gesture, so a perfect file written
    with floats would silently get the worst score. Empty cells are refused first.

    Raises:
        SubmissionRejected: A cell is empty, or holds a token that is not an integer.
    """
    require_filled_text(y_pred)
    for position, name in enumerate(y_pred.names):
        bad = [
            (row, token)
            for row, text in enumerate(_texts(y_pred.values(position)))
            for token in text.split()
            if not INTEGER_TOKEN.fullmatch(token)
        ]
        if bad:
            row, token = bad[0]
            rows = len({row for row, _ in bad})
            raise SubmissionRejected(
                f"column {show_value(name)} has tokens that are not integers in "
                f"{count(rows, 'row')}, first {show_value(token)} in data row {row + 1}; write "
                "each sequence as whole numbers separated by spaces, e.g. '2 14 20'"
            )


def _text_blocks(columns: Columns, position: int) -> Iterator[list[str]]:
    """A column as Python strings, :data:`BLOCK_ROWS` rows at a time (numbers as ``%g`` text):
    the whole column is never held as Python objects."""
    text = columns.text(position)
    if text is None:
        values = columns.values(position)
        for start in range(0, len(values), BLOCK_ROWS):
            yield _texts(values[start : start + BLOCK_ROWS])
        return
    for block in text.blocks(BLOCK_ROWS):
        yield ["" if value is None else value for value in block]


def _texts(values: Array) -> list[str]:
    """A column as Python strings; numbers (labels that all looked numeric) as ``%g`` text."""
    array = np.asarray(values)
    if array.dtype == np.float64:
        return [f"{number:g}" for number in array.tolist()]
    return ["" if text is None else str(text) for text in array.tolist()]


DECLARATIONS = (
    Metric(
        name="mean-levenshtein",
        lower_is_better=True,
        value_kind="label",
        rows_sum_to_one=False,
        compute=mean_levenshtein,
        description="mean character Levenshtein distance of predicted and true text",
        arity="one",
        check_predictions=require_filled_text,
    ),
    Metric(
        name="sequence-levenshtein-rate",
        lower_is_better=True,
        value_kind="label",
        rows_sum_to_one=False,
        compute=sequence_levenshtein_rate,
        description="token Levenshtein distance of space-separated integer sequences per true "
        "token",
        arity="one",
        check_predictions=require_integer_tokens,
    ),
)
