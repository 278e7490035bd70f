"""Loading a competition's answers (a CSV file or a DataFrame) into the form validation uses.

Answers are the competition's responsibility, so every problem here raises
:class:`~graders.errors.GraderError`. They are read with the same reader and value checks as
submissions — one code path, so the validator and the grader cannot disagree.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, TypeGuard, cast

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pytest_mlebench.graders.arrow_numpy import joined_numbers
from pytest_mlebench.graders.composite_keys import row_keys
from pytest_mlebench.graders.errors import GraderError, SubmissionRejected
from pytest_mlebench.graders.memory import MEMORY_POOL
from pytest_mlebench.graders.messages import show_names
from pytest_mlebench.graders.metrics.base import NUMERIC_KINDS, Columns, FloatArray, Metric
from pytest_mlebench.graders.reading import open_text, read_columns
from pytest_mlebench.graders.spec import SubmissionSpec
from pytest_mlebench.graders.values import (
    float_columns,
    mixed_columns,
    numeric_values,
    stripped_text,
)

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True)
class Answers:
    """Answer ids and answer columns, in answer order.

    Attributes:
        ids: Normalized ids (text, stripped).
        columns: The answer columns the metric reads, in spec order.
        size_bytes: Size of the answers file (or the frame's memory), for the size guard.
    """

    ids: pa.ChunkedArray
    columns: Columns
    size_bytes: int


def is_frame(source: object) -> TypeGuard[pd.DataFrame]:
    """Whether ``source`` is a pandas DataFrame (without importing pandas when it is not)."""
    pandas = sys.modules.get("pandas")
    return pandas is not None and isinstance(source, pandas.DataFrame)


def load_answers(
    source: Path | str | pd.DataFrame, spec: SubmissionSpec, metric: Metric
) -> Answers:
    """Load and check the answers for ``spec``.

    Numeric value kinds need finite numeric answers; labels become numbers when every answer
    label is a number, and stay text otherwise.

    Raises:
        GraderError: The answers are unreadable, lack a column, or hold unusable values.
    """
    keys = len(spec.id_columns)
    columns = (*spec.id_columns, *spec.resolved_answer_columns)
    try:
        if is_frame(source):
            arrays, size = _from_frame(source, columns, metric, keys), _frame_size(source)
        else:
            path = Path(cast("Path | str", source))
            arrays, size = _from_file(path, columns, metric, keys), path.stat().st_size
        ids = row_keys(arrays, spec, answers=True).keys
        names = columns[keys:]
        if metric.arity == "grouped":
            table = _with_groups(names, arrays, ids)
        elif metric.value_kind in NUMERIC_KINDS:
            numbers = (numeric_values(arrays.pop(name), name, "real", ids) for name in names)
            table = float_columns(names, numbers, len(ids))
        else:
            texts = [_label_or_text(arrays.pop(name), metric) for name in names]
            table = mixed_columns(names, texts)
    except SubmissionRejected as error:
        raise GraderError(f"answers {_describe(source)}: {error.reason}") from error
    except OSError as error:
        raise GraderError(f"answers {_describe(source)}: {error}") from error
    return Answers(ids=ids, columns=table, size_bytes=size)


def _with_groups(
    names: tuple[str, ...], arrays: dict[str, pa.ChunkedArray], ids: pa.ChunkedArray
) -> Columns:
    """Numeric answer columns, then the last column as group names (stripped text)."""
    *values, group = names
    numbers = [numeric_values(arrays.pop(name), name, "real", ids) for name in values]
    return mixed_columns(names, [*numbers, stripped_text(arrays.pop(group))])


def _describe(source: Path | str | pd.DataFrame) -> str:
    return "frame" if is_frame(source) else f"file {source}"


def _arrow_type(metric: Metric) -> pa.DataType:
    return pa.float64() if metric.value_kind in NUMERIC_KINDS else pa.string()


def _from_file(
    path: Path, columns: tuple[str, ...], metric: Metric, keys: int = 1
) -> dict[str, pa.ChunkedArray]:
    """The ``columns`` of the answers file, the first ``keys`` (the row key) as text."""
    text = open_text(path, None)
    position = {name: index for index, name in enumerate(text.header)}
    _require(columns, position)
    types = {position[name]: _arrow_type(metric) for name in columns[keys:]}
    if metric.arity == "grouped":
        types[position[columns[-1]]] = pa.string()
    types.update({position[name]: pa.string() for name in columns[:keys]})
    arrays = read_columns(text, types, streamed=_arrow_type(metric) == pa.string())
    return {name: arrays[position[name]] for name in columns}


def _from_frame(
    frame: pd.DataFrame, columns: tuple[str, ...], metric: Metric, keys: int = 1
) -> dict[str, pa.ChunkedArray]:
    if frame.columns.duplicated().any():
        raise SubmissionRejected("the frame has duplicate column names")
    _require(columns, {str(name): 0 for name in frame.columns})
    arrays = {}
    for name in columns:
        series = frame[name]
        if series.isna().any():
            raise SubmissionRejected(f"column {name!r} has missing values")
        numeric = name not in columns[:keys] and metric.value_kind in NUMERIC_KINDS
        numeric = numeric and not (metric.arity == "grouped" and name == columns[-1])
        if numeric and _is_numeric(series):
            arrays[name] = pa.chunked_array([series.to_numpy(dtype=np.float64)], type=pa.float64())
        else:
            arrays[name] = pa.chunked_array(
                [series.astype(str).to_numpy(dtype=object)], type=pa.string()
            )
    return arrays


def _is_numeric(series: pd.Series) -> bool:
    import pandas as pd  # a frame was passed, so pandas is imported already

    return bool(pd.api.types.is_numeric_dtype(series.dtype))


def _frame_size(frame: pd.DataFrame) -> int:
    return int(frame.memory_usage(index=False).sum())


def _require(columns: tuple[str, ...], present: dict[str, int]) -> None:
    missing = [name for name in columns if name not in present]
    if missing:
        raise SubmissionRejected(
            f"missing column {missing[0]!r}; it has columns {show_names(list(present))}"
        )


def _label_or_text(values: pa.ChunkedArray, metric: Metric) -> FloatArray | pa.ChunkedArray:
    """Labels become numbers when every one is a finite number; other text stays text."""
    text = stripped_text(values)
    if metric.value_kind == "label":
        try:
            cast = pc.cast(text, pa.float64(), memory_pool=MEMORY_POOL)
            numbers = joined_numbers(cast.chunks, np.float64)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError):
            return text
        if np.isfinite(numbers).all():
            return np.asarray(numbers, dtype=np.float64)
    return text
