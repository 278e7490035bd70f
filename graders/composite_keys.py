"""Row keys of one or several columns: the one exact key that id matching compares.

A spec with ``key_columns`` identifies a row by several columns (smartphone-decimeter-2022's
``tripId`` and ``UnixTimeMillis``). Each part is compared as stripped text, as a single id is,
and the parts are joined with the ASCII unit separator (U+001F) into one key, so that
:func:`graders.alignment.match_ids` matches the rows unchanged. The join is exact: no answer
part may hold the separator (the competition's fault, raised), so every answer key holds exactly
one separator fewer than it has parts, and a submission part that holds one makes a key with
more, which can never equal an answer key.

A spec with ``pair_repeated_ids`` (the original MLE-bench's pairing by position inside a group)
keys each row by its id and its occurrence number among the rows of that id.

When the keys do not pair one to one, :func:`match_rows` says why in terms of the key's columns:
the foreign, repeated or missing key with one example, and the fix where it can tell (a
timestamp written as a float, a timestamp the trip does not have).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from pytest_mlebench.graders.alignment import match_ids, normalize_ids, not_in_test_set
from pytest_mlebench.graders.arrow_numpy import joined_numbers
from pytest_mlebench.graders.errors import GraderError, SubmissionRejected
from pytest_mlebench.graders.memory import MEMORY_POOL
from pytest_mlebench.graders.messages import count, show_value
from pytest_mlebench.graders.spec import SubmissionSpec

IntArray = npt.NDArray[np.int64]

SEPARATOR = "\x1f"
"""Joins the parts of a key (ASCII unit separator)."""

_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")
"""A number as pandas or a float array may write a whole number: ``1619735725999.0``,
``1.619735725999e+12``."""

_PART_LIMIT = 60
"""Characters of each key part shown in a reason (trip ids run to about 45)."""


@dataclass(frozen=True)
class RowKeys:
    """The key of every row, in file order.

    Attributes:
        keys: One exact key per row (the id itself for a single id column).
        parts: The key's columns, stripped, in spec order.
        shown: The key as a reason shows a row (the parts joined by a space).
    """

    keys: pa.ChunkedArray
    parts: tuple[pa.ChunkedArray, ...]
    shown: pa.ChunkedArray


def is_composite(spec: SubmissionSpec) -> bool:
    """Whether rows are keyed by more than the id column's text."""
    return bool(spec.key_columns) or spec.pair_repeated_ids


def row_keys(
    arrays: dict[str, pa.ChunkedArray], spec: SubmissionSpec, *, answers: bool = False
) -> RowKeys:
    """Pop the spec's id columns from ``arrays`` and key every row by them.

    Args:
        arrays: Columns by name (the id columns are removed from it).
        spec: Names the id columns and how they key a row.
        answers: The columns are the answers': a part holding the separator is an error.

    Raises:
        SubmissionRejected: (answers only) a key part holds the separator; the answers loader
            turns it into a :class:`~graders.errors.GraderError`.
    """
    parts = tuple(normalize_ids(arrays.pop(name)) for name in spec.id_columns)
    if not is_composite(spec):
        return RowKeys(keys=parts[0], parts=parts, shown=parts[0])
    if answers:
        _require_no_separator(parts, spec)
    base = parts[0] if len(parts) == 1 else _join(parts, SEPARATOR)
    keys = _with_occurrence(base) if spec.pair_repeated_ids else base
    shown = parts[0] if len(parts) == 1 else _join(parts, " ")
    return RowKeys(keys=keys, parts=parts, shown=shown)


def match_rows(submission: RowKeys, answer_keys: pa.ChunkedArray, spec: SubmissionSpec) -> IntArray:
    """Return, for each answer row, the submission row with its key.

    Raises:
        SubmissionRejected: A key is foreign, repeated or missing; for a composite key the
            reason names the key's columns, one example and the fix.
        GraderError: The answers repeat a key.
    """
    if not is_composite(spec):
        return match_ids(submission.keys, answer_keys)
    try:
        return match_ids(submission.keys, answer_keys)
    except (SubmissionRejected, GraderError):
        pass
    if spec.pair_repeated_ids:
        raise _count_mismatch(submission, answer_keys, spec)
    raise _key_mismatch(submission, answer_keys, spec)


def _join(parts: tuple[pa.ChunkedArray, ...], separator: str) -> pa.ChunkedArray:
    joined = pc.binary_join_element_wise(*parts, separator, memory_pool=MEMORY_POOL)
    return joined if isinstance(joined, pa.ChunkedArray) else pa.chunked_array([joined])


def _require_no_separator(parts: tuple[pa.ChunkedArray, ...], spec: SubmissionSpec) -> None:
    for name, part in zip(spec.id_columns, parts, strict=True):
        if pc.any(pc.match_substring(part, SEPARATOR), memory_pool=MEMORY_POOL).as_py():
            raise SubmissionRejected(
                f"column {name!r} holds the character U+001F, which joins the parts of a row key"
            )


def _codes(values: pa.ChunkedArray) -> IntArray:
    """Dictionary codes of ``values``, numbered by first appearance."""
    encoded = pc.dictionary_encode(values, memory_pool=MEMORY_POOL).chunks
    return joined_numbers((c.indices for c in encoded), np.int64)


def _with_occurrence(ids: pa.ChunkedArray) -> pa.ChunkedArray:
    """Each id joined with its occurrence number among the rows with that id (0, 1, …)."""
    codes = _codes(ids)
    order = np.argsort(codes, kind="stable")
    ranked = codes[order]
    starts = np.flatnonzero(np.r_[True, ranked[1:] != ranked[:-1]]) if ranked.size else ranked
    sizes = np.diff(np.r_[starts, ranked.size])
    occurrence = np.empty(codes.size, dtype=np.int64)
    occurrence[order] = np.arange(codes.size, dtype=np.int64) - np.repeat(starts, sizes)
    numbers = pc.cast(pa.array(occurrence), pa.string(), memory_pool=MEMORY_POOL)
    return _join((ids, pa.chunked_array([numbers])), SEPARATOR)


def _noun(spec: SubmissionSpec) -> str:
    columns = ", ".join(spec.id_columns)
    return f"({columns}) {'pair' if len(spec.id_columns) == 2 else 'key'}"


def _show(values: list[str]) -> str:
    return "(" + ", ".join(show_value(value, limit=_PART_LIMIT) for value in values) + ")"


def _submitted(submission: RowKeys, row: int) -> list[str]:
    return [str(part[row].as_py()) for part in submission.parts]


def _key_mismatch(
    submission: RowKeys, answer_keys: pa.ChunkedArray, spec: SubmissionSpec
) -> Exception:
    """Why composite keys do not pair one to one (first problem found, with one example)."""
    answers = len(answer_keys)
    codes = _codes(pa.chunked_array(answer_keys.chunks + submission.keys.chunks, pa.string()))
    answer_codes, rows_of = codes[:answers], codes[answers:]
    noun = _noun(spec)
    expected = np.arange(answers, dtype=np.int64)
    if not np.array_equal(answer_codes, expected):
        repeated = int(np.flatnonzero(answer_codes != expected)[0])
        return GraderError(f"the answers repeat the {noun} {_answer_key(answer_keys, repeated)}")
    unknown = rows_of >= answers
    found = np.bincount(rows_of[~unknown], minlength=answers)
    missing = int((found == 0).sum())
    if unknown.any():
        first = int(np.argmax(unknown))
        example = _submitted(submission, first)
        reason = not_in_test_set(rows_of[unknown], noun) + f", e.g. {_show(example)}"
        if missing:
            reason += f" ({count(missing, 'test ' + noun)} {_are(missing)} missing)"
        return SubmissionRejected(reason + _unknown_hint(example, answer_keys, spec))
    if (found > 1).any():
        repeated_rows = found > 1
        first = int(np.argmax(repeated_rows))
        shown = f"{_answer_key(answer_keys, first)} ({found[first]} times)"
        number = int(repeated_rows.sum())
        head = (
            f"duplicate {noun} {shown}"
            if number == 1
            else f"{number} {noun}s appear more than once, e.g. {shown}"
        )
        return SubmissionRejected(f"{head}; each {noun} must appear once")
    if missing:
        first = int(np.argmax(found == 0))
        return SubmissionRejected(
            f"{count(missing, noun)} of the test set {_are(missing)} missing, e.g. "
            f"{_answer_key(answer_keys, first)}; "
            f"the submission needs one row for every {noun} of the test set"
        )
    return SubmissionRejected(f"the rows do not pair one to one with the test set by {noun}")


def _answer_key(answer_keys: pa.ChunkedArray, row: int) -> str:
    """An answer row's key as a reason shows it (answer parts never hold the separator)."""
    return _show(str(answer_keys[row].as_py()).split(SEPARATOR))


def _unknown_hint(example: list[str], answer_keys: pa.ChunkedArray, spec: SubmissionSpec) -> str:
    """How to fix a foreign composite key: a part written as a float, or a part not the trip's."""
    names = spec.id_columns
    wholes = [_whole_number(value) for value in example]
    fixed = [
        whole if whole is not None else value for value, whole in zip(example, wholes, strict=True)
    ]
    if fixed != example and _has_key(answer_keys, SEPARATOR.join(fixed)):
        column, value, whole = next(
            (name, value, whole)
            for name, value, whole in zip(names, example, wholes, strict=True)
            if whole is not None
        )
        return (
            f": {column} is written as a float ({show_value(value)} for "
            f"{show_value(whole)}); write it as a whole number, as the sample submission has it "
            f"(in pandas: read the column with dtype=str, or convert it with .astype('int64') "
            "before to_csv)"
        )
    prefix = example[0] + SEPARATOR
    first_known = pc.any(
        pc.starts_with(answer_keys, pattern=prefix, memory_pool=MEMORY_POOL),
        memory_pool=MEMORY_POOL,
    ).as_py()
    if first_known:
        rest = (
            f"has no row at {names[1]} {show_value(example[1])}"
            if len(names) == 2
            else f"not with these {', '.join(names[1:])} values"
        )
        return (
            f": {names[0]} {show_value(example[0], limit=_PART_LIMIT)} is in the test set, but "
            f"{rest}; rows are matched by the exact ({', '.join(names)}) values, never by "
            "position, so take them from the sample submission"
        )
    return f": {names[0]} {show_value(example[0], limit=_PART_LIMIT)} is not in the test set"


def _whole_number(value: str) -> str | None:
    """The whole number a float-written value stands for (``1.5e3`` → ``1500``), else None."""
    if value.isdigit() or not _NUMBER.fullmatch(value):
        return None
    try:
        number = Decimal(value)
    except InvalidOperation:
        return None
    if number != number.to_integral_value():
        return None
    return str(int(number))


def _has_key(answer_keys: pa.ChunkedArray, key: str) -> bool:
    found = pc.any(pc.equal(answer_keys, pa.scalar(key)), memory_pool=MEMORY_POOL).as_py()
    return bool(found)


def _count_mismatch(
    submission: RowKeys, answer_keys: pa.ChunkedArray, spec: SubmissionSpec
) -> Exception:
    """Why rows paired by position inside each id do not pair: an id's row counts differ."""
    name = spec.id_columns[0] if len(spec.id_columns) == 1 else _noun(spec)
    base = pc.replace_substring_regex(
        answer_keys, pattern=SEPARATOR + "[0-9]+$", replacement="", memory_pool=MEMORY_POOL
    )
    submitted = submission.parts[0] if len(submission.parts) == 1 else None
    if submitted is None:
        submitted = _join(submission.parts, SEPARATOR)
    wanted = _counts(base)
    given = _counts(submitted)
    for value in given:
        if value not in wanted:
            return SubmissionRejected(f"{name} {_show_id(value)} is not in the test set")
    for value, number in wanted.items():
        if given.get(value, 0) != number:
            shown = _show_id(value)
            return SubmissionRejected(
                f"{name} {shown} has {count(given.get(value, 0), 'row')} in the submission and "
                f"{number} in the test set; rows of one {name} are paired by their order"
            )
    return SubmissionRejected(f"the rows do not pair with the test set by {name}")


def _show_id(value: str) -> str:
    parts = value.split(SEPARATOR)
    return show_value(value, limit=_PART_LIMIT) if len(parts) == 1 else _show(parts)


def _counts(values: pa.ChunkedArray) -> dict[str, int]:
    counted = pc.value_counts(values).to_pylist()
    return {str(entry["values"]): int(entry["counts"]) for entry in counted}


def _are(number: int) -> str:
    return "is" if number == 1 else "are"
