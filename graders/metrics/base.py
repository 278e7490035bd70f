"""The :class:`Metric` value type and the checks metrics share on their inputs.

A metric is a pure function of two aligned frames — ``y_true`` (the answer columns) and ``y_pred``
(the submission's target columns), same length, row ``i`` of one belongs to row ``i`` of the
other, columns paired by position. Validation guarantees the submission side (finite numbers,
ranges, row sums); the metric checks only what it needs from the answers and raises
:class:`~graders.errors.GraderError` when the answers cannot be scored against.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
import numpy.typing as npt
import pandas as pd

from graders.errors import GraderError

ValueKind = Literal[
    "label", "integer-label", "probability", "real", "nonnegative", "positive", "ranking", "risk"
]
"""What a submission value must be.

``label``: any text, compared as stripped strings, or as numbers when the answers are numbers;
``integer-label``: whole numbers; ``probability``: numbers in [0, 1]; ``real``: finite numbers;
``nonnegative``: numbers >= 0; ``positive``: numbers > 0; ``ranking``: a space-separated list of
item ids (may be empty); ``risk``: finite numbers, higher meaning an earlier event.
"""

NUMERIC_KINDS: frozenset[ValueKind] = frozenset(
    {"integer-label", "probability", "real", "nonnegative", "positive", "risk"}
)

Arity = Literal["one", "paired", "survival"]
"""How target columns pair with answer columns.

``one``: one target column against one answer column; ``paired``: one or more target columns,
each against the answer column at the same position; ``survival``: one risk column against two
answer columns, time then event.
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
        compute: ``compute(y_true, y_pred, **params) -> float``.
        description: One line for people.
        arity: How target columns pair with answer columns (see :data:`Arity`).
        parameters: Names of the keyword parameters ``compute`` accepts.
    """

    name: str
    lower_is_better: bool
    value_kind: ValueKind
    rows_sum_to_one: bool
    compute: Callable[..., float] = field(repr=False)
    description: str
    arity: Arity = "paired"
    parameters: tuple[str, ...] = ()


def float_matrix(frame: pd.DataFrame) -> FloatArray:
    """The frame's values as a 2-D float64 array (no copy when already float64)."""
    return np.asarray(frame.to_numpy(dtype=np.float64), dtype=np.float64)


def float_column(frame: pd.DataFrame, position: int = 0) -> FloatArray:
    """One column of the frame as a 1-D float64 array."""
    return np.asarray(frame.iloc[:, position].to_numpy(dtype=np.float64), dtype=np.float64)


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


def require_same_shape(y_true: pd.DataFrame, y_pred: pd.DataFrame, metric: str) -> None:
    """Raise unless the frames pair up row by row and column by column."""
    if y_true.shape != y_pred.shape:
        raise GraderError(
            f"{metric}: answers have shape {y_true.shape}, predictions {y_pred.shape}"
        )
    if len(y_true) == 0:
        raise GraderError(f"{metric}: there are no rows to score")
