"""Aligning a valid numeric submission with its answers block by block, in bounded memory.

The fast path of :func:`graders.validation.align_submission` for the common large case: answers
in a CSV file, a numeric metric, ids of at most 8 bytes (event ids, most numeric ids). Both files
are streamed in record batches of about a megabyte (:func:`graders.reading.read_batches`), so no
text outlives its batch: each batch's values go through the same value checks as on the
whole-file path and are written to one column-major matrix per file, and each id becomes an
exact 64-bit key. The keys of each side are sorted with their row numbers in 12 bytes a row
(:mod:`graders.keyindex`), which pairs the rows, and the submission's columns are then put in
answer order in place, through one column-sized buffer. What is held at the peak, while the
rows are paired, is the two matrices and the two sorted key arrays with their checks: 56 bytes
a row with two float columns a side, and no Arrow copy of either file's columns, no id text.

This path only ever accepts: anything unusual (an id that is unknown, repeated, missing, longer
than 8 bytes or surrounded by whitespace that changes it, a value that does not convert or is
out of range, a malformed row, rows that do not sum to one) makes it return None, and the
whole-file path reads both files again and explains the problem in exactly its own words. The
checks of the file itself (size, text, header, columns) are the same functions and raise as
they do there.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt
import pyarrow as pa

from pytest_mlebench.graders.columns import locate_columns
from pytest_mlebench.graders.errors import SubmissionRejected
from pytest_mlebench.graders.hashing import UInt64Array, short_string_keys
from pytest_mlebench.graders.keyindex import SortedKeys, may_need_strip, pair_rows
from pytest_mlebench.graders.memory import release_free_memory
from pytest_mlebench.graders.metrics.base import (
    NUMERIC_KINDS,
    Columns,
    FloatArray,
    Metric,
    ValueKind,
)
from pytest_mlebench.graders.reading import BATCH_BYTES, CsvText, open_text, read_batches
from pytest_mlebench.graders.spec import SubmissionSpec
from pytest_mlebench.graders.values import ROW_SUM_TOLERANCE, numeric_values

if TYPE_CHECKING:
    import pandas as pd

_GROWTH = 1.5
"""How much a store grows when the estimated row count falls short."""

_TAKE_ROWS = 1 << 20
"""Rows per step when the submission's columns are taken into answer order."""


def align_in_blocks(
    submission: Path,
    answers: Path | str | pd.DataFrame,
    spec: SubmissionSpec,
    metric: Metric,
    max_bytes: Callable[[int], int],
) -> tuple[Columns, Columns] | None:
    """The answer and prediction columns of a valid submission, aligned by id; None otherwise.

    Args:
        submission: The submission CSV.
        answers: The answers (this path reads only a file; a frame returns None).
        spec: The checked spec; ``metric`` is its metric.
        max_bytes: The size limit of a submission, given the size of the answers file.

    Returns:
        ``(y_true, y_pred)`` in answer row order, the predictions' own rule checked; None when
        this path cannot serve the case or the submission is not valid as it stands (the
        whole-file path then decides and explains).

    Raises:
        SubmissionRejected: From the file checks (size, text, header, columns) and from the
            metric's rule on the predictions, exactly as the whole-file path raises them.
    """
    if spec.key_columns or not _eligible(answers, metric):
        return None  # rows keyed by several columns take the whole-file path
    truth = _read_answers(Path(str(answers)), spec)
    _release_read_buffers()  # the answers' parsed batches
    if truth is None:
        return None
    y_true, answer_keys, answers_bytes = truth
    del truth  # the keys go as soon as the rows are paired
    text = open_text(submission, max_bytes(answers_bytes), expected_bytes=answers_bytes)
    required = (spec.id_column, *spec.target_columns)
    position = locate_columns(text.header, required, spec.extra_columns, spec.original_columns)
    targets = spec.target_columns
    read = _read_rows(text, position, spec.id_column, targets, metric.value_kind, y_true.rows)
    _release_read_buffers()  # the submission's parsed batches
    if read is None:
        return None
    keys, values = read
    del read
    submission_keys = SortedKeys.of(keys)
    del keys
    rows = None if submission_keys is None else pair_rows(answer_keys, submission_keys)
    del answer_keys, submission_keys
    if rows is None:
        return None
    y_pred = Columns.of_matrix(targets, _taken(values, rows))
    del values, rows
    release_free_memory()
    if metric.rows_sum_to_one and not _rows_sum_to_one(y_pred.floats()):
        return None
    if metric.check_predictions is not None:
        metric.check_predictions(y_pred)
    return y_true, y_pred


def _release_read_buffers() -> None:
    """Hand back what reading left cached: the allocator's free pages and, since Arrow's CSV
    reader takes its read-ahead blocks from Arrow's default pool, that pool's unused memory."""
    release_free_memory()
    pa.default_memory_pool().release_unused()


def _eligible(answers: object, metric: Metric) -> bool:
    """Answers in a file, numbers on both sides (no group names), no per-row rule."""
    return (
        isinstance(answers, (str, Path))
        and metric.value_kind in NUMERIC_KINDS
        and metric.arity != "grouped"
        and metric.check_rows is None
    )


def _read_answers(path: Path, spec: SubmissionSpec) -> tuple[Columns, SortedKeys, int] | None:
    """The answer matrix and the sorted answer keys, or None for anything unusual."""
    names = spec.resolved_answer_columns
    try:
        text = open_text(path, None)
    except SubmissionRejected:
        return None
    position = {name: index for index, name in enumerate(text.header)}
    wanted = (spec.id_column, *names)
    if len(set(wanted)) != len(wanted) or any(name not in position for name in wanted):
        return None
    read = _read_rows(text, position, spec.id_column, names, "real", None)
    if read is None:
        return None
    keys, matrix = read
    del read
    # A view of the rows read: each column stays contiguous, the unused rows cost no memory.
    matrix = matrix[: keys.size]
    sorted_keys = SortedKeys.of(keys)
    if sorted_keys is None:
        return None
    return Columns.of_matrix(names, matrix), sorted_keys, path.stat().st_size


def _read_rows(
    text: CsvText,
    position: dict[str, int],
    id_column: str,
    names: Sequence[str],
    kind: ValueKind,
    rows: int | None,
) -> tuple[UInt64Array, FloatArray] | None:
    """Every row's id key and checked values, in file order; None for anything unusual.

    Args:
        rows: The number of rows a valid file has (the submission's: the answers'), or None
            when unknown: the arrays are then sized from the first batch and grown as needed.

    Returns:
        The keys (exactly one per row) and a column-major matrix of the values, which may
        have more rows than keys (the rows past them unused).
    """
    types: dict[int, pa.DataType] = {position[name]: pa.float64() for name in names}
    types[position[id_column]] = pa.string()
    store = _RowStore(len(names), text, rows)
    try:
        for batch in read_batches(text, types, block_bytes=BATCH_BYTES):
            ids = pa.chunked_array([batch[position[id_column]]])
            keys = short_string_keys(ids)
            # Ids with whitespace at an edge would be stripped first: the whole-file path's case.
            if keys is None or may_need_strip(keys) or not store.fits(keys.size):
                return None
            values = [
                numeric_values(pa.chunked_array([batch[position[name]]]), name, kind, ids)
                for name in names
            ]
            store.append(keys, values)
    except (SubmissionRejected, OSError):
        return None
    if rows is not None and store.rows != rows:
        return None
    return store.finish()


def _taken(values: FloatArray, rows: npt.NDArray[np.uint32]) -> FloatArray:
    """The rows ``rows`` of ``values``, in that order, written over ``values`` itself.

    Column by column through one column-sized buffer (block by block), so the result needs no
    second matrix; the rows past ``rows.size`` (never read) are dropped from the view.
    """
    buffer = np.empty(rows.size, dtype=np.float64)
    for j in range(values.shape[1]):
        column = values[: rows.size, j]
        for start in range(0, rows.size, _TAKE_ROWS):
            part = slice(start, start + _TAKE_ROWS)
            np.take(values[:, j], rows[part].astype(np.intp), out=buffer[part])
        column[:] = buffer
    return values[: rows.size]


def _rows_sum_to_one(matrix: FloatArray) -> bool:
    total = matrix.sum(axis=1)
    total -= 1.0
    return bool((np.abs(total) <= ROW_SUM_TOLERANCE).all())


class _RowStore:
    """Keys and float columns appended batch by batch, in arrays sized once when possible.

    With a known row count the arrays have exactly that size and a longer file is refused.
    Otherwise the count is estimated from the first batch's rows per byte (with a margin; pages
    never written cost no memory) and the arrays grow when the estimate falls short.
    """

    def __init__(self, width: int, text: CsvText, rows: int | None) -> None:
        self.rows = 0
        self._width = width
        self._data_bytes = max(1, text.path.stat().st_size - text.data_offset)
        self._limit = rows
        capacity = 0 if rows is None else rows
        self._keys: UInt64Array = np.empty(capacity, dtype=np.uint64)
        self._matrix: FloatArray = np.empty((capacity, width), dtype=np.float64, order="F")

    def fits(self, count: int) -> bool:
        """Whether ``count`` more rows are within the known row count (always, without one)."""
        return self._limit is None or self.rows + count <= self._limit

    def append(self, keys: UInt64Array, values: list[FloatArray]) -> None:
        count = keys.size
        if self.rows + count > self._keys.size:
            self._grow(count)
        end = self.rows + count
        self._keys[self.rows : end] = keys
        for j, column in enumerate(values):
            self._matrix[self.rows : end, j] = column
        self.rows = end

    def _grow(self, count: int) -> None:
        if self._keys.size == 0:  # the first batch: about BATCH_BYTES of the text
            estimate = math.ceil(count * self._data_bytes / BATCH_BYTES * 1.05) + 1024
        else:
            estimate = math.ceil(self._keys.size * _GROWTH)
        capacity = max(estimate, self.rows + count)
        keys = np.empty(capacity, dtype=np.uint64)
        keys[: self.rows] = self._keys[: self.rows]
        matrix = np.empty((capacity, self._width), dtype=np.float64, order="F")
        matrix[: self.rows] = self._matrix[: self.rows]
        self._keys, self._matrix = keys, matrix

    def finish(self) -> tuple[UInt64Array, FloatArray]:
        """The keys of the rows appended (a view) and the whole matrix."""
        return self._keys[: self.rows], self._matrix
