"""Matching a CSV header against the columns a spec requires, by name and in any order."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pytest_mlebench.graders.errors import SubmissionRejected
from pytest_mlebench.graders.messages import show_names, show_quoted, show_value
from pytest_mlebench.graders.spec import ExtraColumns

_OTHER_DELIMITERS = (";", "\t", "|")


def locate_columns(
    header: Sequence[str],
    required: Sequence[str],
    extra: ExtraColumns,
    original: Sequence[str] = (),
) -> dict[str, int]:
    """Return the header position of every required column.

    Args:
        header: Column names of the file, stripped, in file order.
        required: Names that must be present (the id column first, then the targets).
        extra: ``"reject"`` makes any other column invalid; ``"ignore"`` skips it.
        original: The target columns of the original MLE-bench's form of the file, where they
            are fewer than ours: a file in that form is told which columns to add.

    Raises:
        SubmissionRejected: A duplicate name, a missing column or (when rejecting) an extra one.
    """
    duplicates = [name for name, seen in Counter(header).items() if seen > 1]
    if duplicates:
        raise SubmissionRejected(
            f"duplicate column {show_value(duplicates[0])} in the header; column names must be "
            "unique"
        )
    position = {name: index for index, name in enumerate(header)}
    missing = [name for name in required if name not in position]
    if missing:
        raise SubmissionRejected(
            _original_form(header, missing, required, original)
            or _missing(header, missing, required)
        )
    wanted = set(required)
    unexpected = [name for name in header if name not in wanted]
    if unexpected and extra == "reject":
        what = "column" if len(unexpected) == 1 else f"{len(unexpected)} columns"
        raise SubmissionRejected(
            f"unexpected {what} {show_quoted(unexpected)}; expected columns: {show_names(required)}"
        )
    return {name: position[name] for name in required}


def _missing(header: Sequence[str], missing: Sequence[str], required: Sequence[str]) -> str:
    if len(header) == 1 and len(required) > 1:
        only = header[0]
        if any(delimiter in only for delimiter in _OTHER_DELIMITERS):
            return f"expected comma-separated CSV; the header has one column {show_value(only)}"
    noun = "column" if len(missing) == 1 else "columns"
    reason = f"missing {noun} {show_quoted(missing)}; expected columns: {show_names(required)}"
    folded = {name.casefold(): name for name in header}
    near = [folded[name.casefold()] for name in missing if name.casefold() in folded]
    if near:
        reason += f" (found {show_quoted(near)}: names are case-sensitive)"
    return reason


def _original_form(
    header: Sequence[str], missing: Sequence[str], required: Sequence[str], original: Sequence[str]
) -> str | None:
    """The reason for a file in the original MLE-bench's form (its columns, none of ours more)."""
    if not original or not set(original) <= set(header):
        return None
    targets = len(required) - 1
    noun = "column" if len(missing) == 1 else "columns"
    return (
        f"missing {noun} {show_quoted(missing)}: this file has the original MLE-bench's "
        f"{len(original)} target columns, but the competition's metric scores all {targets}, as "
        f"Kaggle did; add {show_quoted(missing)} (predictions for every test row)"
    )
