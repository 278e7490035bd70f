"""Reading a CSV file into typed Arrow columns, rejecting what is not a readable CSV.

The file is read once into memory (after a size guard), checked to be UTF-8 text, its header is
parsed with the :mod:`csv` module, and the data rows are parsed by ``pyarrow.csv`` with explicit
column types — the fast path. A value that does not convert makes the reader parse again with
every requested column as text, so that :mod:`graders.values` can say which value is wrong.

Every problem raises :class:`~graders.errors.SubmissionRejected`; the answers loader re-raises it
as a :class:`~graders.errors.GraderError`.
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.csv as pa_csv

from graders.errors import SubmissionRejected
from graders.messages import describe_size, show_value

HEADER_LIMIT_BYTES = 1 << 20
_UTF8_BOM = codecs.BOM_UTF8
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_DECODE_CHUNK = 1 << 22


@dataclass(frozen=True)
class CsvText:
    """A CSV file that passed the text checks: its header and the bytes after it."""

    header: tuple[str, ...]
    data: pa.Buffer


def read_file(path: Path, max_bytes: int | None, *, expected_bytes: int | None = None) -> bytes:
    """Return the bytes of a regular file no larger than ``max_bytes``.

    Args:
        path: The file to read.
        max_bytes: Size limit, checked before reading; ``None`` for no limit.
        expected_bytes: Size of the answers file, only to explain the limit in the message.

    Raises:
        SubmissionRejected: The path is missing, not a regular file, too large or unreadable.
    """
    try:
        if path.is_dir():
            raise SubmissionRejected(f"submission is a directory, not a CSV file: {path}")
        if not path.exists():
            raise SubmissionRejected(f"file not found: {path}")
        if not path.is_file():
            raise SubmissionRejected(f"not a regular file: {path}")
        size = path.stat().st_size
        if max_bytes is not None and size > max_bytes:
            raise SubmissionRejected(_too_large(size, max_bytes, expected_bytes))
        return path.read_bytes()
    except OSError as error:
        raise SubmissionRejected(f"cannot read {path}: {error.strerror or error}") from error


def _too_large(size: int, max_bytes: int, expected_bytes: int | None) -> str:
    answers = (
        "" if expected_bytes is None else f"; the answers file is {describe_size(expected_bytes)}"
    )
    return (
        f"file is {describe_size(size)}, over the {describe_size(max_bytes)} limit for this "
        f"competition{answers}"
    )


def parse_text(raw: bytes) -> CsvText:
    """Check that ``raw`` is UTF-8 CSV text with a header and split off the header.

    Raises:
        SubmissionRejected: Empty, binary, not UTF-8, or no header.
    """
    if not raw:
        raise SubmissionRejected("file is empty")
    if raw.startswith(_UTF16_BOMS):
        raise SubmissionRejected("file is UTF-16 text; save it as UTF-8")
    nul = raw.find(b"\x00")
    if nul >= 0:
        raise SubmissionRejected(f"file is binary, not CSV text (NUL byte at offset {nul})")
    _check_utf8(raw)
    start = len(_UTF8_BOM) if raw.startswith(_UTF8_BOM) else 0
    header, header_end = _parse_header(raw, start)
    return CsvText(header=header, data=pa.py_buffer(raw)[header_end:])


def _check_utf8(raw: bytes) -> None:
    for begin, end in _utf8_chunks(raw):
        try:
            raw[begin:end].decode("utf-8")
        except UnicodeDecodeError as error:
            bad = begin + error.start
            line = raw.count(b"\n", 0, bad) + 1
            raise SubmissionRejected(
                f"file is not UTF-8 text: invalid byte 0x{raw[bad]:02x} on line {line}; "
                "save it as UTF-8"
            ) from error


def _utf8_chunks(raw: bytes) -> list[tuple[int, int]]:
    """Split ``raw`` into chunks that do not cut a UTF-8 character (bounded memory to decode)."""
    bounds = [0]
    while len(raw) - bounds[-1] > _DECODE_CHUNK:
        cut = bounds[-1] + _DECODE_CHUNK
        # Step back over at most 3 continuation bytes (0b10xxxxxx) to a character start.
        for _ in range(3):
            if raw[cut] & 0xC0 != 0x80:
                break
            cut -= 1
        bounds.append(cut)
    bounds.append(len(raw))
    return list(itertools.pairwise(bounds))


def _parse_header(raw: bytes, start: int) -> tuple[tuple[str, ...], int]:
    head = raw[start : start + HEADER_LIMIT_BYTES]
    text = codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    stream = io.StringIO(text)
    try:
        row = next((row for row in csv.reader(stream) if row), None)
    except csv.Error as error:
        raise SubmissionRejected(f"cannot parse the header: {error}") from error
    if row is None:
        raise SubmissionRejected("file has no header (only blank lines)")
    consumed = len(text[: stream.tell()].encode("utf-8"))
    if consumed >= len(head) and len(raw) - start > len(head):
        raise SubmissionRejected("the header line is longer than 1 MB")
    return tuple(name.strip() for name in row), start + consumed


def read_columns(text: CsvText, types: Mapping[int, pa.DataType]) -> dict[int, pa.Array]:
    """Parse the data rows, returning the columns at the given header positions.

    A conversion failure (a value that is not a number in a float column) is not an error here:
    the columns are parsed again as text, and the caller's value checks explain the failure.

    Args:
        text: The checked CSV text.
        types: Arrow type of each wanted column, keyed by its position in the header.

    Raises:
        SubmissionRejected: The rows are not well-formed CSV or there are none.
    """
    try:
        return _read_typed(text, types)
    except pa.ArrowInvalid as error:
        if "conversion error" not in str(error):
            raise SubmissionRejected(_parse_error(error)) from error
    as_text = {position: pa.string() for position in types}
    try:
        return _read_typed(text, as_text)
    except pa.ArrowException as error:
        raise SubmissionRejected(_parse_error(error)) from error


def _read_typed(text: CsvText, types: Mapping[int, pa.DataType]) -> dict[int, pa.Array]:
    names = [f"c{position}" for position in range(len(text.header))]
    wanted = {f"c{position}": kind for position, kind in types.items()}
    try:
        table = pa_csv.read_csv(
            pa.BufferReader(text.data),
            read_options=pa_csv.ReadOptions(column_names=names),
            convert_options=pa_csv.ConvertOptions(
                column_types=wanted, include_columns=list(wanted)
            ),
        )
    except pa.ArrowInvalid as error:
        if "Empty CSV file" in str(error):
            raise SubmissionRejected("no data rows (the file has only a header)") from error
        raise
    if table.num_rows == 0:
        raise SubmissionRejected("no data rows (the file has only a header)")
    return {position: table.column(f"c{position}").combine_chunks() for position in types}


def _parse_error(error: pa.ArrowException) -> str:
    message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    message = message.removeprefix("CSV parse error: ")
    expected = "Expected "
    if message.startswith(expected) and " columns, got " in message:
        counts, _, row = message[len(expected) :].partition(": ")
        wanted, _, got = counts.partition(" columns, got ")
        return f"malformed CSV: a row has {got} fields, the header has {wanted}: {show_value(row)}"
    return f"malformed CSV: {show_value(message, limit=160)}"
