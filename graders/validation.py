"""Validating a submission against the answers — the one code path behind scoring and the
sandbox validator.

The order of checks: the spec (the competition's fault, raised), the answers (likewise), then the
submission file — size, text, header, columns by name, rows, ids as an exact set, values per the
metric's value kind, row sums, and the metric's own rule on predictions where it has one. What
comes out is two :class:`~graders.metrics.base.Columns` aligned row by row through the ids, so a
metric never sees reordered columns, shuffled rows or foreign ids.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pyarrow as pa

from pytest_mlebench.graders.answers import load_answers
from pytest_mlebench.graders.blockwise import align_in_blocks
from pytest_mlebench.graders.columns import locate_columns
from pytest_mlebench.graders.composite_keys import match_rows, row_keys
from pytest_mlebench.graders.errors import GraderError, SubmissionRejected
from pytest_mlebench.graders.memory import release_free_memory
from pytest_mlebench.graders.messages import show_names, show_value
from pytest_mlebench.graders.metrics import Metric, get_metric
from pytest_mlebench.graders.metrics.base import NUMERIC_KINDS, Columns, FloatArray
from pytest_mlebench.graders.reading import CsvText, open_text, read_columns
from pytest_mlebench.graders.spec import SubmissionSpec
from pytest_mlebench.graders.values import (
    check_row_sums,
    float_columns,
    label_values,
    mixed_columns,
    numeric_values,
)

if TYPE_CHECKING:
    import pandas as pd

SIZE_FLOOR_BYTES = 50_000_000
"""A submission may always be this large ..."""
SIZE_FACTOR = 20
"""... or this many times the size of the answers file, whichever is larger."""

_ARITY_NEEDS = {
    "one": "one target column and one answer column",
    "paired": "as many answer columns as target columns",
    "survival": "one target column and two answer columns (time, event)",
    "masked": "as many answer columns as target columns, then a 0/1 scored-flag column",
    "grouped": "as many answer columns as target columns, then a group column",
    "uncertain": "two target columns (value, uncertainty) and two answer columns (value, flag)",
    "described": "one target column and at least two answer columns",
    "windowed": "as many answer columns as target columns, then a constant and a window count",
}


@dataclass(frozen=True)
class AlignedSubmission:
    """A valid submission, aligned with its answers.

    Attributes:
        metric: The spec's metric.
        y_true: Answer columns, in spec order, in answer row order.
        y_pred: Target columns, in spec order, in the same row order.
    """

    metric: Metric
    y_true: Columns
    y_pred: Columns


def check_spec(spec: SubmissionSpec) -> Metric:
    """Return the spec's metric after checking the spec can be graded.

    Raises:
        GraderError: Unknown metric, impossible columns or unknown metric parameters.
    """
    metric = get_metric(spec.metric)
    targets, answers = spec.target_columns, spec.resolved_answer_columns
    names = (*spec.id_columns, *targets)
    if not targets or len(set(names)) != len(names) or set(spec.id_columns) & set(answers):
        raise GraderError(
            f"spec columns must be id columns and distinct target columns; got id "
            f"{show_names(spec.id_columns)}, targets {show_names(targets)}, answers "
            f"{show_names(answers)}"
        )
    shape = {
        "one": len(targets) == 1 and len(answers) == 1,
        "paired": len(answers) == len(targets),
        "survival": len(targets) == 1 and len(answers) == 2,
        "masked": len(answers) == len(targets) + 1,
        "grouped": len(answers) == len(targets) + 1,
        "uncertain": len(targets) == 2 and len(answers) == 2,
        "described": len(targets) == 1 and len(answers) >= 2,
        "windowed": len(answers) == len(targets) + 2,
    }
    if not shape[metric.arity]:
        raise GraderError(
            f"metric {metric.name!r} needs {_ARITY_NEEDS[metric.arity]}; the spec has targets "
            f"{show_names(targets)} and answers {show_names(answers)}"
        )
    unknown = sorted(set(spec.metric_params) - set(metric.parameters))
    if unknown:
        known = ", ".join(metric.parameters) or "none"
        raise GraderError(
            f"metric {metric.name!r} has no parameter {unknown[0]!r} (parameters: {known})"
        )
    return metric


def max_submission_bytes(answers_bytes: int) -> int:
    """The size guard: the largest submission read, given the size of the answers."""
    return max(SIZE_FLOOR_BYTES, SIZE_FACTOR * answers_bytes)


def align_submission(
    submission: Path | str, answers: Path | str | pd.DataFrame, spec: SubmissionSpec
) -> AlignedSubmission:
    """Validate a submission and align it with the answers.

    Raises:
        SubmissionRejected: The submission is invalid; the reason says why.
        GraderError: The spec or the answers are broken.
    """
    metric = check_spec(spec)
    in_blocks = align_in_blocks(Path(submission), answers, spec, metric, max_submission_bytes)
    if in_blocks is not None:  # the bounded-memory path accepts only valid submissions
        return AlignedSubmission(metric, *in_blocks)
    truth = load_answers(answers, spec, metric)
    y_true, answer_ids = truth.columns, truth.ids
    release_free_memory()  # what parsing the answers left in the allocator's free lists
    text, columns_at = _open_submission(Path(submission), spec, truth.size_bytes)
    # Text targets are read after the ids are matched and the answer ids freed: the two id
    # lists and the submission's text are never held at once (h-and-m: 180 MB of rankings
    # beside 180 MB of 64-character ids), for a second pass of the parser over the file.
    later = () if metric.value_kind in NUMERIC_KINDS else spec.target_columns
    first = [name for name in columns_at if name not in later]
    arrays = _read_named(text, columns_at, spec, metric, first)
    del truth
    release_free_memory()  # the parser's working buffers, before the ids are hashed
    # Pop each column once used, so its buffers are freed before the next step allocates.
    keys = row_keys(arrays, spec)
    ids = keys.shown  # what reasons show of a row: its id, or its key columns' values
    rows = match_rows(keys, answer_ids, spec)
    del answer_ids, keys  # only the matching needs the answer ids and the exact keys
    release_free_memory()
    if later:
        arrays.update(_read_named(text, columns_at, spec, metric, later))
        if any(len(arrays[name]) != len(rows) for name in later):
            raise SubmissionRejected("the submission file changed while it was read")
    targets = spec.target_columns
    if metric.value_kind in NUMERIC_KINDS:
        numbers = (
            numeric_values(arrays.pop(name), name, metric.value_kind, ids) for name in targets
        )
        y_pred = float_columns(targets, numbers, len(rows), rows)
        if metric.rows_sum_to_one:
            check_row_sums(y_pred.floats(), ids, rows)
    else:
        columns = [
            _label_or_text(arrays.pop(name), name, index, metric, y_true, ids)
            for index, name in enumerate(targets)
        ]
        y_pred = mixed_columns(targets, columns, rows)
    if metric.check_predictions is not None:
        metric.check_predictions(y_pred)
    if metric.check_rows is not None:
        broken = metric.check_rows(y_true, y_pred)
        if broken is not None:
            position, problem = broken
            shown = show_value(ids[int(rows[position])].as_py())
            raise SubmissionRejected(f"row id {shown}: {problem}")
    del arrays, ids, rows
    release_free_memory()  # the submission's parsed buffers, before the metric allocates
    return AlignedSubmission(metric=metric, y_true=y_true, y_pred=y_pred)


def _open_submission(
    path: Path, spec: SubmissionSpec, answers_bytes: int
) -> tuple[CsvText, dict[str, int]]:
    """The submission file after the file checks, and the header position of each id and
    target column."""
    text = open_text(path, max_submission_bytes(answers_bytes), expected_bytes=answers_bytes)
    required = (*spec.id_columns, *spec.target_columns)
    position = locate_columns(text.header, required, spec.extra_columns, spec.original_columns)
    return text, position


def _read_named(
    text: CsvText,
    position: dict[str, int],
    spec: SubmissionSpec,
    metric: Metric,
    names: Sequence[str],
) -> dict[str, pa.ChunkedArray]:
    """The named columns of the submission, by name: ids as text, targets as the metric's
    values need (every row is parsed, so a malformed file is refused whichever are named)."""
    ids = set(spec.id_columns)
    target_type = pa.float64() if metric.value_kind in NUMERIC_KINDS else pa.string()
    types = {position[name]: target_type for name in names if name not in ids}
    types.update({position[name]: pa.string() for name in names if name in ids})
    arrays = read_columns(text, types, streamed=True)
    return {name: arrays[position[name]] for name in names}


def _label_or_text(
    values: pa.ChunkedArray,
    name: str,
    index: int,
    metric: Metric,
    y_true: Columns,
    ids: pa.ChunkedArray,
) -> FloatArray | pa.ChunkedArray:
    """A label column (numbers when the answers are numbers) or ranking text, as submitted."""
    if metric.value_kind == "label":
        numeric = y_true.text(index) is None and y_true.values(index).dtype == np.float64
        return label_values(values, name, numeric, ids)
    return values
