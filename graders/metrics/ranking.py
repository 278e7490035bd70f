"""Ranking metrics: mean average precision at k.

Built on integer codes rather than strings, and on the hits only: the answers' item ids form
one dictionary (pyarrow), each relevant (row, item) pair becomes one int64 key, and the
predictions are read in blocks of rows, each token looked up in that dictionary; a token that
is not a relevant item of its row can never count, so only the hits are kept, de-duplicated and
ranked. Memory stays bounded by the block, and h-and-m-personalized-fashion-recommendations (1.37
million customers × 12 articles) grades in seconds (``docs/benchmarks.md``).
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from pytest_mlebench.graders.arrow_numpy import joined_numbers
from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Array, Columns, FloatArray, require_same_shape

IntArray = npt.NDArray[np.int64]
BLOCK_ROWS = 131_072
"""Prediction rows tokenised at a time (about 1.6 million tokens for 12 items a row)."""


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
    true_rows, true_items = _answer_tokens(y_true)
    vocabulary = pc.unique(true_items)
    width = np.int64(max(len(vocabulary), 1))
    codes = joined_numbers(pc.index_in(true_items, value_set=vocabulary).chunks, np.int64)
    relevant = np.unique(true_rows * width + codes)
    del true_rows, true_items, codes
    denominator = np.minimum(np.bincount(relevant // width, minlength=rows), k)
    scored = denominator > 0
    if relevant_rows_only and not scored.any():
        raise GraderError("map-at-k: no answer row lists a relevant item, so none is scored")
    precision_sum = np.zeros(rows)
    for start, block in _cell_blocks(y_pred):
        precision_sum[start : start + len(block)] = _precision_sums(
            block, start, k, vocabulary, width, relevant
        )
    average_precision = np.divide(precision_sum, denominator, out=np.zeros(rows), where=scored)
    if relevant_rows_only:
        return float(average_precision[scored].mean())
    return float(average_precision.mean())


def _cell_blocks(columns: Columns) -> Iterator[tuple[int, Array | pa.Array]]:
    """The first column's cells, :data:`BLOCK_ROWS` rows at a time, with each block's first
    row: Arrow strings for a text column, never the whole column as Python objects."""
    text = columns.text(0)
    if text is None:
        values = columns.values(0)
        for start in range(0, len(values), BLOCK_ROWS):
            yield start, values[start : start + BLOCK_ROWS]
        return
    start = 0
    for block in text.arrow_blocks(BLOCK_ROWS):
        yield start, block
        start += len(block)


def _answer_tokens(y_true: Columns) -> tuple[IntArray, pa.ChunkedArray]:
    """Row number and item id of every relevant item the answers list, read in blocks."""
    rows, items = [np.zeros(0, dtype=np.int64)], []
    for start, block in _cell_blocks(y_true):
        block_rows, _, block_items = _tokens(block)
        rows.append(block_rows + start)
        items.append(block_items)
    return np.concatenate(rows), pa.chunked_array(items, type=pa.string())


def _precision_sums(
    cells: Array | pa.Array,
    first_row: int,
    k: int,
    vocabulary: pa.Array,
    width: np.int64,
    relevant: IntArray,
) -> FloatArray:
    """``Σ P(i)·rel(i)`` over the first ``k`` items of each row of one block of predictions."""
    rows, ranks, items = _tokens(cells)
    in_top_k = ranks < k
    rows, ranks = rows[in_top_k], ranks[in_top_k]
    codes = pc.index_in(items.filter(pa.array(in_top_k)), value_set=vocabulary)
    known = np.asarray(codes.is_valid(), dtype=bool)  # an item no answer lists never hits
    rows, ranks = rows[known], ranks[known]
    keys = (rows + first_row) * width + np.asarray(codes.drop_null(), dtype=np.int64)
    place = np.minimum(np.searchsorted(relevant, keys), max(relevant.size - 1, 0))
    hit = relevant[place] == keys if relevant.size else np.zeros(keys.size, dtype=bool)
    rows, ranks, keys = rows[hit], ranks[hit], keys[hit]
    first = np.sort(np.unique(keys, return_index=True)[1])  # a repeated item counts once
    rows, ranks = rows[first], ranks[first]
    hits_so_far = np.arange(1, rows.size + 1) - np.searchsorted(rows, rows)  # 1, 2, … per row
    precision = hits_so_far / (ranks + 1.0)
    sums: FloatArray = np.bincount(rows, weights=precision, minlength=len(cells)).astype(np.float64)
    return sums


def _tokens(cells: Array | pa.Array) -> tuple[IntArray, IntArray, pa.Array]:
    """Row number, rank within the row and item id of every whitespace-separated token."""
    if not isinstance(cells, pa.Array):
        cells = pa.array(cells, type=pa.string(), from_pandas=True)
    text = pc.fill_null(cells, "")
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
