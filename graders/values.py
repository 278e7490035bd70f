"""Checking and converting the values of a submission column according to a metric's value kind.

Columns arrive as Arrow arrays in submission order: float64 from the fast path, text when a
value did not convert (the reader's fallback). Each check names the column, how many values are
wrong, one example and the id of its row, so a reason is enough to fix the file.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import numpy.typing as npt
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from graders.errors import SubmissionRejected
from graders.messages import count, show_value
from graders.metrics.base import FloatArray, ValueKind

ROW_SUM_TOLERANCE = 1e-3
"""How far a row of class probabilities may sum from 1 (absolute); the metric rescales after."""

MISSING_TOKENS = (
    "", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN",
    "<NA>", "N/A", "NA", "NULL", "NaN", "None", "n/a", "nan", "null",
)  # fmt: skip
"""Text read as a missing number (pyarrow's defaults, plus ``None`` and ``<NA>``)."""

BoolArray = npt.NDArray[np.bool_]


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
        missing = np.asarray(pc.is_null(numbers), dtype=bool)
        _reject(missing, ids, column, "missing value", hint="every row needs a number")
    array = np.asarray(numbers.to_numpy(zero_copy_only=False), dtype=np.float64)
    finite = np.isfinite(array)
    if not finite.all():
        _reject(~finite, ids, column, "non-finite value", array)
    _check_range(array, column, kind, ids)
    return array


def _parse_text(values: pa.ChunkedArray, column: str, ids: pa.ChunkedArray) -> pa.ChunkedArray:
    text = pc.utf8_trim_whitespace(values)
    missing = pc.is_in(text, value_set=pa.array(MISSING_TOKENS, pa.string()))
    candidates = pd.Series(np.asarray(text.to_numpy(zero_copy_only=False), dtype=object))
    candidates[np.asarray(missing, dtype=bool)] = None
    parsed = pd.to_numeric(candidates, errors="coerce")
    numbers = np.asarray(parsed, dtype=np.float64)
    not_numeric = np.isnan(numbers) & ~np.asarray(missing, dtype=bool)
    if not_numeric.any():
        _reject(not_numeric, ids, column, "non-numeric value", text)
    return pa.chunked_array(
        [pa.array(numbers, mask=np.asarray(missing, dtype=bool), type=pa.float64())]
    )


_RANGES: dict[str, tuple[str, str]] = {
    "probability": ("value outside [0, 1]", "probabilities must be between 0 and 1"),
    "nonnegative": ("negative value", "this metric needs values >= 0"),
    "positive": ("value <= 0", "this metric needs values > 0"),
    "integer-label": ("non-integer value", "this metric needs whole-number labels"),
}


def _check_range(array: FloatArray, column: str, kind: ValueKind, ids: pa.ChunkedArray) -> None:
    if kind == "probability":
        bad = (array < 0.0) | (array > 1.0)
    elif kind == "nonnegative":
        bad = array < 0.0
    elif kind == "positive":
        bad = array <= 0.0
    elif kind == "integer-label":
        bad = array != np.round(array)
    else:
        return
    if bad.any():
        noun, hint = _RANGES[kind]
        _reject(bad, ids, column, noun, array, hint=hint)


def check_row_sums(columns: Sequence[FloatArray], ids: pa.ChunkedArray) -> None:
    """Reject unless every row of class probabilities sums to 1 within the tolerance."""
    total = np.array(columns[0], dtype=np.float64, copy=True)
    for column in columns[1:]:
        total += column
    off = np.abs(total - 1.0) > ROW_SUM_TOLERANCE
    if off.any():
        first = int(np.argmax(off))
        raise SubmissionRejected(
            f"probabilities of row id {show_value(ids[first].as_py())} sum to "
            f"{total[first]:.6g}, expected 1 (±{ROW_SUM_TOLERANCE:g}); "
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
    return pc.utf8_trim_whitespace(values.cast(pa.string()))


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
