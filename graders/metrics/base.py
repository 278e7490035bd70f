"""The :class:`Metric` value type and the checks metrics share on their inputs.

A metric is a pure function of two aligned :class:`Columns` — ``y_true`` (the answer columns) and
``y_pred`` (the submission's target columns), same length, row ``i`` of one belongs to row ``i``
of the other, columns paired by position. Validation guarantees the submission side (finite numbers,
ranges, row sums); the metric checks only what it needs from the answers and raises
:class:`~graders.errors.GraderError` when the answers cannot be scored against.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.text_column import TextColumn

ValueKind = Literal[
    "label",
    "integer-label",
    "probability",
    "real",
    "nonnegative",
    "positive",
    "ranking",
    "risk",
    "text",
]
"""What a submission value must be.

``label``: any text, compared as stripped strings, or as numbers when the answers are numbers;
``integer-label``: whole numbers; ``probability``: numbers in [0, 1]; ``real``: finite numbers;
``nonnegative``: numbers >= 0; ``positive``: numbers > 0; ``ranking``: a space-separated list of
item ids (may be empty); ``risk``: finite numbers, higher meaning an earlier event; ``text``:
any text, an empty cell being the empty string (a span, a set of words or tags).
"""

NUMERIC_KINDS: frozenset[ValueKind] = frozenset(
    {"integer-label", "probability", "real", "nonnegative", "positive", "risk"}
)

Arity = Literal[
    "one", "paired", "survival", "masked", "grouped", "uncertain", "described", "windowed"
]
"""How target columns pair with answer columns.

``one``: one target column against one answer column; ``paired``: one or more target columns,
each against the answer column at the same position; ``survival``: one risk column against two
answer columns, time then event; ``masked``: as ``paired``, plus a last answer column of 0/1
flags (1 = the row is scored); ``grouped``: as ``paired``, plus a last answer column naming each
row's group (text); ``uncertain``: a value and an uncertainty column against one answer value
column plus a 0/1 scored flag; ``described``: one target column against the first answer
column, the other answer columns describing each row (identity groups); ``windowed``: as
``paired``, plus two numeric answer columns that summarise the labelled windows a row stands for
(a per-row constant, then the window count).
"""

FloatArray = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Metric:
    """A named metric with the facts validation and medals need about it.

    Attributes:
        name: Registry name, for example ``"roc-auc"``.
        lower_is_better: Direction: True for losses and errors.
        value_kind: What each submission value must be (see :data:`ValueKind`).
        rows_sum_to_one: Each submission row must sum to 1 (class probabilities).
        compute: ``compute(y_true, y_pred, **params) -> float`` over two :class:`Columns`.
        description: One line for people.
        arity: How target columns pair with answer columns (see :data:`Arity`).
        parameters: Names of the keyword parameters ``compute`` accepts.
        check_predictions: A rule the aligned predictions must meet beyond their value kind
            (Pearson's r needs predictions that vary), run by validation; it raises
            :class:`~graders.errors.SubmissionRejected` with the reason. None: no such rule.
        check_rows: A rule each aligned prediction must meet against its own answer (a
            notebook's cell order must list exactly that notebook's cells): ``check_rows(y_true,
            y_pred)`` returns the position of the first row that breaks it and what is wrong,
            or None; validation names the row's id in the reason. None: no such rule.
        perfect: The best value the metric can take (1.0 for accuracy, 0.0 for an error),
            where it has one; the integrity check ``too-good`` flags a score that reaches it
            where the leaderboard's best does not. None: no such value declared.
    """

    name: str
    lower_is_better: bool
    value_kind: ValueKind
    rows_sum_to_one: bool
    compute: Callable[..., float] = field(repr=False)
    description: str
    arity: Arity = "paired"
    parameters: tuple[str, ...] = ()
    check_predictions: Callable[[Columns], None] | None = field(default=None, repr=False)
    check_rows: Callable[[Columns, Columns], tuple[int, str] | None] | None = field(
        default=None, repr=False
    )
    perfect: float | None = None


Array = npt.NDArray[Any]
Column = Array | TextColumn
"""One column: a 1-D numpy array of numbers, or a :class:`TextColumn` of text."""


@dataclass(frozen=True)
class Columns:
    """Named, aligned columns: what a metric's ``compute`` reads for answers and predictions.

    Every column has the same length: numbers are a 1-D numpy array (float64 from the
    graders), text is a :class:`TextColumn` (Arrow strings, read in blocks or whole through
    :meth:`values`). Columns are paired with the other side's by position.

    Attributes:
        names: Column names, for messages.
        arrays: One column per name, in the order of ``names``.
        matrix: When the columns are float64 views of one 2-D array, that array, so that
            :meth:`floats` needs no copy.
    """

    names: tuple[str, ...]
    arrays: tuple[Column, ...]
    matrix: FloatArray | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        if len(self.names) != len(self.arrays):
            raise ValueError(f"{len(self.names)} names for {len(self.arrays)} columns")
        if any(array.ndim != 1 or len(array) != self.rows for array in self.arrays):
            raise ValueError("columns must be 1-D arrays of the same length")

    @classmethod
    def of(cls, columns: Mapping[str, npt.ArrayLike | TextColumn]) -> Columns:
        """Columns from a mapping of name to values: lists or arrays, converted by numpy;
        strings (with None for a missing one) become a :class:`TextColumn`, an object array
        holding anything else stays a numpy array (its metric reads it through :meth:`values`)."""
        return cls(tuple(columns), tuple(_column(values) for values in columns.values()))

    @classmethod
    def of_matrix(cls, names: tuple[str, ...], matrix: FloatArray) -> Columns:
        """Columns over the columns of a 2-D float64 array (views, no copy)."""
        return cls(names, tuple(matrix[:, j] for j in range(matrix.shape[1])), matrix)

    @property
    def rows(self) -> int:
        """The number of rows (0 without columns)."""
        return len(self.arrays[0]) if self.arrays else 0

    @property
    def shape(self) -> tuple[int, int]:
        """``(rows, columns)``."""
        return self.rows, len(self.arrays)

    def floats(self) -> FloatArray:
        """The columns as one 2-D float64 array, rows by columns (no copy when possible)."""
        if self.matrix is not None:
            return self.matrix
        matrix = np.empty(self.shape, dtype=np.float64, order="F")
        for j in range(len(self.arrays)):
            matrix[:, j] = self.float_column(j)
        return matrix

    def float_column(self, position: int = 0) -> FloatArray:
        """One column as a 1-D float64 array (no copy when it is one)."""
        column = self.arrays[position]
        if isinstance(column, TextColumn):  # numbers written as text; ValueError when not
            return np.asarray(column.texts(), dtype=np.float64)
        return np.asarray(column, dtype=np.float64)

    def values(self, position: int = 0) -> Array:
        """One column as a numpy array: its numbers as they are, text as Python strings.

        Text is converted whole (about 50 bytes a value beyond the text): metrics whose test
        sets reach millions of rows read :meth:`text` in blocks instead.
        """
        column = self.arrays[position]
        return column.texts() if isinstance(column, TextColumn) else column

    def text(self, position: int = 0) -> TextColumn | None:
        """One column as a :class:`TextColumn`; None when it holds numbers."""
        column = self.arrays[position]
        return column if isinstance(column, TextColumn) else None


def _column(values: npt.ArrayLike | TextColumn) -> Column:
    if isinstance(values, TextColumn):
        return values
    array = np.asarray(values)
    if array.dtype.kind in "UO":
        try:
            return TextColumn.of(array)
        except ValueError:  # other objects (a pandas NaN for a missing cell) stay as given
            return array
    return array


def require_binary(labels: FloatArray, column: str, metric: str) -> None:
    """Raise unless ``labels`` holds only 0 and 1."""
    if not np.all((labels == 0) | (labels == 1)):
        raise GraderError(f"{metric}: answer column {column!r} must hold only 0 and 1")


def require_both_classes(labels: FloatArray, column: str, metric: str) -> None:
    """Raise unless ``labels`` is binary and holds both classes."""
    require_binary(labels, column, metric)
    positives = int(np.count_nonzero(labels))
    if positives in (0, labels.size):
        raise GraderError(f"{metric}: answer column {column!r} holds only one class")


def require_scored_flags(y_true: Columns, metric: str) -> npt.NDArray[np.bool_]:
    """The last answer column as booleans; raise unless it is 0/1 with at least one 1."""
    flags = y_true.float_column(len(y_true.arrays) - 1)
    require_binary(flags, y_true.names[-1], metric)
    scored: npt.NDArray[np.bool_] = np.equal(flags, 1.0)
    if not scored.any():
        raise GraderError(f"{metric}: answer column {y_true.names[-1]!r} flags no row as scored")
    return scored


def require_same_shape(y_true: Columns, y_pred: Columns, metric: str) -> None:
    """Raise unless the columns pair up row by row and column by column."""
    if y_true.shape != y_pred.shape:
        raise GraderError(
            f"{metric}: answers have shape {y_true.shape}, predictions {y_pred.shape}"
        )
    if y_true.rows == 0:
        raise GraderError(f"{metric}: there are no rows to score")
