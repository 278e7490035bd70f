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

from pytest_mlebench.graders.arrow_numpy import boolean_array, booleans_of, numbers_of
from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.memory import MEMORY_POOL
from pytest_mlebench.graders.metrics.base import (
    Array,
    Columns,
    FloatArray,
    Metric,
    require_same_shape,
)

IntArray = npt.NDArray[np.int64]
BLOCK_ROWS = 32_768
"""Rows tokenised at a time (about 400,000 tokens for 12 items a row)."""


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
    vocabulary = _vocabulary(y_true)
    width = np.int64(max(len(vocabulary), 1))
    relevant = _relevant_keys(y_true, vocabulary, width)
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


def _vocabulary(y_true: Columns) -> pa.Array:
    """Every item id the answers list, once each (the answers are read block by block, so
    only one block's tokens and the distinct ids are held at a time)."""
    distinct = [
        pc.unique(_tokens(block)[2], memory_pool=MEMORY_POOL) for _, block in _cell_blocks(y_true)
    ]
    return pc.unique(pa.chunked_array(distinct, type=pa.string()), memory_pool=MEMORY_POOL)


def _relevant_keys(y_true: Columns, vocabulary: pa.Array, width: np.int64) -> IntArray:
    """The sorted, distinct ``row * width + item code`` of every relevant (row, item) pair."""
    keys = [np.zeros(0, dtype=np.int64)]
    for start, block in _cell_blocks(y_true):
        rows, _, items = _tokens(block)
        found = pc.index_in(items, value_set=vocabulary, memory_pool=MEMORY_POOL)
        codes = np.asarray(numbers_of(found), dtype=np.int64)
        keys.append((rows + start) * width + codes)
    return _distinct_sorted(np.concatenate(keys))


def _distinct_sorted(keys: IntArray) -> IntArray:
    """``np.unique(keys)``, sorting ``keys`` in place: numpy 2.4's ``unique`` holds about seven
    times the array's size at its peak (230 MB for h-and-m's 4 million pairs), this one two."""
    keys.sort()
    first = np.empty(keys.size, dtype=bool)
    first[:1] = True
    np.not_equal(keys[1:], keys[:-1], out=first[1:])
    distinct: IntArray = keys[first]
    return distinct


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
    top = pc.filter(items, boolean_array(in_top_k), memory_pool=MEMORY_POOL)
    codes = pc.index_in(top, value_set=vocabulary, memory_pool=MEMORY_POOL)
    known = booleans_of(pc.is_valid(codes, memory_pool=MEMORY_POOL))  # others never hit
    rows, ranks = rows[known], ranks[known]
    found = np.asarray(numbers_of(codes.drop_null()), dtype=np.int64)
    keys = (rows + first_row) * width + found
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
    # A null (an empty cell of a frame) is an empty list; the CSV reader gives none. No
    # Python scalar where there is no null: making one imports pandas (through pyarrow).
    text = pc.coalesce(cells, "", memory_pool=MEMORY_POOL) if cells.null_count else cells
    trimmed = pc.utf8_trim_whitespace(text, memory_pool=MEMORY_POOL)
    lists = pc.utf8_split_whitespace(trimmed, memory_pool=MEMORY_POOL)
    offsets = np.asarray(numbers_of(lists.offsets), dtype=np.int64)
    row = np.repeat(np.arange(len(cells), dtype=np.int64), np.diff(offsets))
    rank = np.arange(row.size, dtype=np.int64) - offsets[:-1][row]
    items = lists.flatten()
    # Trimmed, only an empty cell splits into an empty token (its only one, so ranks hold).
    filled = numbers_of(pc.binary_length(items, memory_pool=MEMORY_POOL)) > 0
    if filled.all():
        return row, rank, items
    kept = pc.filter(items, boolean_array(filled), memory_pool=MEMORY_POOL)
    return row[filled], rank[filled], kept


DECLARATIONS = (
    Metric(
        name="map-at-k",
        perfect=1.0,
        lower_is_better=False,
        value_kind="ranking",
        rows_sum_to_one=False,
        compute=map_at_k,
        description="mean average precision at k (default 10) of space-separated rankings",
        arity="one",
        parameters=("k", "relevant_rows_only"),
    ),
)
