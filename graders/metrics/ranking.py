"""Ranking metrics: mean average precision at k.

Built on integer codes rather than strings: every item id of both sides is dictionary-encoded
once (pyarrow), each (row, item) pair becomes one int64 key, and hits are found by a sorted
search. h-and-m-personalized-fashion-recommendations (1.37 million customers × 12 articles)
grades in seconds this way (``docs/benchmarks.md``).
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Array, Columns, require_same_shape

IntArray = npt.NDArray[np.int64]


def map_at_k(
    y_true: Columns, y_pred: Columns, k: int = 10, relevant_rows_only: bool = False
) -> float:
    """Mean average precision at ``k`` over rows (Kaggle's ``mapk``).

    Each cell is a space-separated list of item ids: the answer lists the relevant items, the
    prediction ranks items best first. ``AP@k = Σᵢ P(i)·rel(i) / min(|relevant|, k)`` over the
    first ``k`` predicted items, where ``P(i)`` is the precision of the first ``i`` items and a
    repeated item counts only at its first position. A row with no relevant items scores 0 and
    counts in the mean, unless ``relevant_rows_only``: then the mean is over the rows that have
    relevant items (h-and-m: customers who bought nothing in the test week are not scored).
    """
    require_same_shape(y_true, y_pred, "map-at-k")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise GraderError(f"map-at-k: parameter k must be a positive integer, not {k!r}")
    if not isinstance(relevant_rows_only, bool):
        raise GraderError(
            f"map-at-k: parameter relevant_rows_only must be true or false, not "
            f"{relevant_rows_only!r}"
        )
    rows = y_true.rows
    true_rows, _, true_items = _tokens(y_true.arrays[0])
    pred_rows, pred_ranks, pred_items = _tokens(y_pred.arrays[0])
    first_k = pred_ranks < k
    pred_rows, pred_ranks = pred_rows[first_k], pred_ranks[first_k]
    codes = _codes(true_items, pred_items.filter(pa.array(first_k)))
    width = np.int64(max(int(codes.max(initial=0)) + 1, 1))
    relevant = np.unique(true_rows * width + codes[: len(true_rows)])
    if relevant.size == 0:
        if relevant_rows_only:
            raise GraderError("map-at-k: no answer row lists a relevant item, so none is scored")
        return 0.0  # no row has a relevant item: every row scores 0
    keys = pred_rows * width + codes[len(true_rows) :]
    _, first = np.unique(keys, return_index=True)  # a repeated item counts at its first rank
    once = np.zeros(keys.size, dtype=bool)
    once[first] = True
    place = np.searchsorted(relevant, keys)
    hit = once & (place < relevant.size) & (relevant[np.minimum(place, relevant.size - 1)] == keys)
    hits_so_far = np.cumsum(hit)
    row_start = np.searchsorted(pred_rows, np.arange(rows))  # tokens come row by row
    before_row = np.concatenate([[0], hits_so_far])[row_start]
    precision = np.where(hit, (hits_so_far - before_row[pred_rows]) / (pred_ranks + 1.0), 0.0)
    precision_sum = np.bincount(pred_rows, weights=precision, minlength=rows)
    denominator = np.minimum(np.bincount(relevant // width, minlength=rows), k)
    scored = denominator > 0
    average_precision = np.divide(precision_sum, denominator, out=np.zeros(rows), where=scored)
    if relevant_rows_only:
        return float(average_precision[scored].mean())
    return float(average_precision.mean())


def _tokens(cells: Array) -> tuple[IntArray, IntArray, pa.Array]:
    """Row number, rank within the row and item id of every whitespace-separated token."""
    text = pc.fill_null(pa.array(cells, type=pa.string(), from_pandas=True), "")
    lists = pc.utf8_split_whitespace(pc.utf8_trim_whitespace(text))
    offsets = np.asarray(lists.offsets, dtype=np.int64)
    row = np.repeat(np.arange(len(cells), dtype=np.int64), np.diff(offsets))
    rank = np.arange(row.size, dtype=np.int64) - offsets[:-1][row]
    items = lists.flatten()
    # Trimmed, only an empty cell splits into an empty token (its only one, so ranks hold).
    filled = np.asarray(pc.not_equal(items, ""), dtype=bool)
    if filled.all():
        return row, rank, items
    return row[filled], rank[filled], items.filter(pa.array(filled))


def _codes(true_items: pa.Array, pred_items: pa.Array) -> IntArray:
    """One integer per item id, shared by both sides: the answers' tokens, then the predictions'."""
    both = pa.concat_arrays([true_items.cast(pa.string()), pred_items.cast(pa.string())])
    encoded = pc.dictionary_encode(both)
    return np.asarray(encoded.indices, dtype=np.int64)
