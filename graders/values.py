"""Checking and converting the values of a submission column according to a metric's value kind.

Columns arrive as Arrow arrays in submission order: float64 from the fast path, text when a
value did not convert (the reader's fallback). Each check names the column, how many values are
wrong, one example and the id of its row, so a reason is enough to fix the file.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from pytest_mlebench.graders.arrow_numpy import integer_array, joined_numbers, texts_of
from pytest_mlebench.graders.errors import SubmissionRejected
from pytest_mlebench.graders.memory import MEMORY_POOL, release_free_memory
from pytest_mlebench.graders.messages import count, show_value
from pytest_mlebench.graders.metrics.base import Column, Columns, FloatArray, ValueKind
from pytest_mlebench.graders.metrics.text_column import TextColumn

ROW_SUM_TOLERANCE = 1e-3
"""How far a row of class probabilities may sum from 1 (absolute); the metric rescales after."""

MISSING_TOKENS = (
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
)  # fmt: skip
"""Text read as a missing number (pyarrow's defaults, plus ``None`` and ``<NA>``)."""

BoolArray = npt.NDArray[np.bool_]

_RANGES: dict[str, tuple[str, str]] = {
    "probability": ("value outside [0, 1]", "probabilities must be between 0 and 1"),
    "nonnegative": ("negative value", "this metric needs values >= 0"),
    "positive": ("value <= 0", "this metric needs values > 0"),
    "integer-label": ("non-integer value", "this metric needs whole-number labels"),
}


def stripped_text(values: pa.ChunkedArray) -> pa.ChunkedArray:
    """Values as text without surrounding whitespace (not copied when there is none)."""
    text = pc.cast(values, pa.string(), memory_pool=MEMORY_POOL)
    if not any(_may_need_strip(chunk) for chunk in text.chunks):
        return text
    return pc.utf8_trim_whitespace(text, memory_pool=MEMORY_POOL)


def _may_need_strip(chunk: pa.StringArray) -> bool:
    """Whether any string starts or ends with whitespace, judged from its first and last byte.

    ASCII whitespace (tab to carriage return, space) counts, and so does any non-ASCII byte, to
    be safe with Unicode whitespace; ``utf8_trim_whitespace`` then decides exactly.
    """
    _, offsets_buffer, data_buffer = chunk.buffers()
    if data_buffer is None:
        return False
    offsets = np.frombuffer(offsets_buffer, dtype=np.int32)[
        chunk.offset : chunk.offset + len(chunk) + 1
    ]
    starts, ends = offsets[:-1], offsets[1:]
    filled = ends > starts
    data = np.frombuffer(data_buffer, dtype=np.uint8)
    edges = np.concatenate([data[starts[filled]], data[ends[filled] - 1]])
    return bool((((edges >= 9) & (edges <= 13)) | (edges == 32) | (edges >= 0x80)).any())


def numeric_values(
    values: pa.ChunkedArray, column: str, kind: ValueKind, ids: pa.ChunkedArray
) -> FloatArray:
    """Return the column as float64, checked to be finite numbers that fit ``kind``.

    Args:
        values: float64 (fast path) or text (fallback) values in submission order.
        column: Column name, for messages.
        kind: A numeric value kind; its range is enforced.
        ids: Row ids in submission order, for messages.

    Raises:
        SubmissionRejected: A value is missing, not a number, not finite or out of range.
    """
    numbers = _parse_text(values, column, ids) if pa.types.is_string(values.type) else values
    if numbers.null_count:
        missing = np.asarray(pc.is_null(numbers, memory_pool=MEMORY_POOL), dtype=bool)
        _reject(missing, ids, column, "missing value", hint="every row needs a number")
    # Chunk by chunk (no nulls: zero-copy views), so the one copy is numpy's, not Arrow's pool's.
    array = joined_numbers(numbers.chunks, np.float64)
    if not _acceptable(array, kind).all():  # one pass when all is well; explain otherwise
        finite = np.isfinite(array)
        if not finite.all():
            _reject(~finite, ids, column, "non-finite value", array)
        noun, hint = _RANGES[kind]
        _reject(~_acceptable(array, kind), ids, column, noun, array, hint=hint)
    return array


def _parse_text(values: pa.ChunkedArray, column: str, ids: pa.ChunkedArray) -> pa.ChunkedArray:
    """Parse text the way pandas does (the fallback after Arrow's float conversion failed).

    Numbers written as text (labels read as text, with spaces around them) are first cast by
    Arrow; only text Arrow cannot read as finite numbers goes through pandas, which is
    imported here for that case alone.
    """
    text = stripped_text(values)
    cast = _cast_numbers(text)
    if cast is not None:
        return cast
    import pandas as pd

    missing = pc.is_in(
        text, value_set=pa.array(MISSING_TOKENS, pa.string()), memory_pool=MEMORY_POOL
    )
    missing_mask = np.asarray(missing, dtype=bool)
    candidates = pd.Series(np.asarray(text.to_numpy(zero_copy_only=False), dtype=object))
    candidates[missing_mask] = None
    numbers = np.asarray(pd.to_numeric(candidates, errors="coerce"), dtype=np.float64)
    not_numeric = np.isnan(numbers) & ~missing_mask
    if not_numeric.any():
        _reject(not_numeric, ids, column, "non-numeric value", text)
    parsed = pa.array(numbers, mask=missing_mask, type=pa.float64(), memory_pool=MEMORY_POOL)
    return pa.chunked_array([parsed])


def _cast_numbers(text: pa.ChunkedArray) -> pa.ChunkedArray | None:
    """``text`` as float64 when Arrow reads every value as a number that is not NaN; ``None``
    when any is missing, NaN or not a number (pandas then explains which)."""
    try:
        numbers = pc.cast(text, pa.float64(), memory_pool=MEMORY_POOL)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
        return None
    if numbers.null_count or pc.any(pc.is_nan(numbers)).as_py():
        return None
    return numbers


def _acceptable(array: FloatArray, kind: ValueKind) -> BoolArray:
    """Which values are finite and in the range of ``kind`` (NaN fails every comparison)."""
    if kind == "probability":
        return (array >= 0.0) & (array <= 1.0)
    if kind == "nonnegative":
        return (array >= 0.0) & (array < np.inf)
    if kind == "positive":
        return (array > 0.0) & (array < np.inf)
    finite = np.isfinite(array)
    if kind == "integer-label":
        finite &= array == np.round(array)
    return finite


def check_row_sums(matrix: FloatArray, ids: pa.ChunkedArray, rows: npt.NDArray[np.int64]) -> None:
    """Reject unless every row of class probabilities sums to 1 within the tolerance.

    Args:
        matrix: Aligned probabilities, one column per class, in answer order.
        ids: Row ids in submission order, for the message.
        rows: For each answer row, its submission row.
    """
    total = matrix.sum(axis=1)
    total -= 1.0
    np.abs(total, out=total)
    off = total > ROW_SUM_TOLERANCE
    if off.any():
        first = int(np.argmax(off))
        raise SubmissionRejected(
            f"probabilities of row id {show_value(ids[int(rows[first])].as_py())} sum to "
            f"{float(matrix[first].sum()):.6g}, expected 1 (±{ROW_SUM_TOLERANCE:g}); "
            f"{count(int(off.sum()), 'row')} in all"
        )


def label_values(
    values: pa.ChunkedArray, column: str, numeric: bool, ids: pa.ChunkedArray
) -> FloatArray | pa.ChunkedArray:
    """Return labels as stripped text, or as float64 when the answers are numbers.

    With numeric answers, ``"1"`` and ``"1.0"`` are the same label, and a label that is not a
    number can never be right, so it is rejected with an example.
    """
    if numeric:
        return numeric_values(values, column, "real", ids)
    return stripped_text(values)


def _reject(
    bad: BoolArray,
    ids: pa.ChunkedArray,
    column: str,
    noun: str,
    shown: FloatArray | pa.ChunkedArray | None = None,
    *,
    hint: str = "",
) -> None:
    """Raise the reason for the ``bad`` rows: how many, and the first one with its id."""
    first = int(np.argmax(bad))
    where = f"at id {show_value(ids[first].as_py())}"
    if isinstance(shown, np.ndarray):
        where = f"{shown[first]:g} {where}"
    elif shown is not None:
        where = f"{show_value(shown[first].as_py())} {where}"
    tail = f"; {hint}" if hint else ""
    raise SubmissionRejected(
        f"column {column!r} has {count(int(bad.sum()), noun)}, e.g. {where}{tail}"
    )


def float_columns(
    names: Sequence[str],
    columns: Iterable[FloatArray],
    size: int,
    rows: npt.NDArray[np.int64] | None = None,
) -> Columns:
    """Write numeric columns, one at a time, into one column-major float matrix.

    ``columns`` may be a generator: each column is placed (taking ``rows``, in that order, when
    given) and released before the next is made; the result's columns are views of the matrix,
    so a metric's :meth:`~graders.metrics.base.Columns.floats` is free.
    """
    matrix = np.empty((size, len(names)), dtype=np.float64, order="F")
    for j, column in enumerate(columns):
        if rows is None:
            matrix[:, j] = column
        else:
            np.take(column, rows, out=matrix[:, j])
        del column
        if len(names) > 1:
            # The parsed column this one came from is free now: hand its pages back before the
            # next column of the matrix is written, so the file's columns and the matrix are
            # not held in full at once (a few milliseconds a column).
            release_free_memory()
    return Columns.of_matrix(tuple(names), matrix)


def mixed_columns(
    names: Sequence[str],
    columns: Sequence[FloatArray | pa.ChunkedArray],
    rows: npt.NDArray[np.int64] | None = None,
) -> Columns:
    """Numeric and text columns, taking ``rows`` (in that order) when given."""
    return Columns(tuple(names), tuple(_take(column, rows) for column in columns))


def _take(column: FloatArray | pa.ChunkedArray, rows: npt.NDArray[np.int64] | None) -> Column:
    if isinstance(column, np.ndarray):
        return column if rows is None else column[rows]
    if pa.types.is_string(column.type):
        # Text stays the parsed Arrow strings, in submission order, with the answer order
        # beside it (8 bytes a row): neither a second Arrow copy of every string (1.6 million
        # InChI strings are 150 MB) nor a Python object per value (about 450 MB for them).
        return TextColumn(column, None if rows is None else np.asarray(rows, dtype=np.int64))
    if rows is not None:
        column = pc.take(column, integer_array(rows), memory_pool=MEMORY_POOL)
    return texts_of(column)
