"""Reading a CSV file into typed Arrow columns, rejecting what is not a readable CSV.

Two passes over the file, neither holding it whole in memory: :func:`open_text` streams it in
chunks to check that it is UTF-8 text (no NUL bytes) and parses the header with the :mod:`csv`
module; :func:`read_columns` then lets ``pyarrow.csv`` parse the rows after the header with
explicit column types — the fast path. A value that does not convert makes the reader parse again
with every requested column as text, so that :mod:`graders.values` can say which value is wrong.
:func:`read_batches` parses the same rows with the same types as a stream of record batches of
bounded size, for a caller that works block by block (:mod:`graders.blockwise`).

Every problem raises :class:`~graders.errors.SubmissionRejected`; the answers loader re-raises it
as a :class:`~graders.errors.GraderError`.
"""

from __future__ import annotations

import codecs
import csv
import io
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.csv as pa_csv

from pytest_mlebench.graders.errors import SubmissionRejected
from pytest_mlebench.graders.memory import MEMORY_POOL, release_free_memory
from pytest_mlebench.graders.messages import describe_size, show_value

HEADER_LIMIT_BYTES = 1 << 20
"""The header must end within the first megabyte."""

_CHUNK_BYTES = 1 << 22
_UTF16_BOMS = (codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_NO_ROWS = "no data rows (the file has only a header)"


@dataclass(frozen=True)
class CsvText:
    """A file that passed the text checks: its header and where the data rows start.

    Attributes:
        path: The file.
        header: Column names, stripped of surrounding whitespace, in file order.
        data_offset: Byte offset of the first data row.
    """

    path: Path
    header: tuple[str, ...]
    data_offset: int


def open_text(path: Path, max_bytes: int | None, *, expected_bytes: int | None = None) -> CsvText:
    """Check that ``path`` is a UTF-8 CSV file with a header, and parse the header.

    Args:
        path: The file to check.
        max_bytes: Size limit, checked before reading; ``None`` for no limit.
        expected_bytes: Size of the answers file, only to explain the limit in the message.

    Raises:
        SubmissionRejected: Missing, not a regular file, too large, unreadable, empty, binary,
            not UTF-8, or without a header.
    """
    try:
        size = _regular_file_size(path)
        if max_bytes is not None and size > max_bytes:
            raise SubmissionRejected(_too_large(size, max_bytes, expected_bytes))
        if size == 0:
            raise SubmissionRejected("file is empty")
        with path.open("rb") as stream:
            head = stream.read(HEADER_LIMIT_BYTES)
            _check_text(head, stream)
    except (OSError, ValueError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise SubmissionRejected(f"cannot read {path}: {reason}") from error
    start = len(codecs.BOM_UTF8) if head.startswith(codecs.BOM_UTF8) else 0
    header, header_end = _parse_header(head, start, size)
    if head.startswith(codecs.BOM_UTF8, header_end):
        # The CSV parser would drop a mark at the start of the rows it is given, so the first
        # row's id would pass where the same mark on any later row is refused.
        raise SubmissionRejected(
            "the first row starts with a UTF-8 byte order mark (U+FEFF) before its first value; "
            "a mark is allowed only at the very start of the file, before the header"
        )
    return CsvText(path=path, header=header, data_offset=header_end)


def _regular_file_size(path: Path) -> int:
    if path.is_dir():
        raise SubmissionRejected(f"submission is a directory, not a CSV file: {path}")
    if not path.exists():
        raise SubmissionRejected(f"file not found: {path}")
    if not path.is_file():
        raise SubmissionRejected(f"not a regular file: {path}")
    return path.stat().st_size


def _too_large(size: int, max_bytes: int, expected_bytes: int | None) -> str:
    answers = (
        "" if expected_bytes is None else f"; the answers file is {describe_size(expected_bytes)}"
    )
    return (
        f"file is {describe_size(size)}, over the {describe_size(max_bytes)} limit for this "
        f"competition{answers}"
    )


def _check_text(head: bytes, stream: io.BufferedReader) -> None:
    """Stream the file (``head`` was read already) checking for NUL bytes and UTF-8."""
    if head.startswith(_UTF16_BOMS):
        raise SubmissionRejected("file is UTF-16 text; save it as UTF-8")
    decoder = codecs.getincrementaldecoder("utf-8")()
    offset, chunk = 0, head
    while chunk:
        nul = chunk.find(b"\x00")
        if nul >= 0:
            raise SubmissionRejected(
                f"file is binary, not CSV text (NUL byte at offset {offset + nul})"
            )
        pending = decoder.getstate()[0]
        if pending or not chunk.isascii():  # ASCII is valid UTF-8; isascii is much faster
            try:
                decoder.decode(chunk, final=False)
            except UnicodeDecodeError as error:
                _reject_encoding(stream, offset - len(pending) + error.start)
        offset += len(chunk)
        chunk = stream.read(_CHUNK_BYTES)
    pending = decoder.getstate()[0]
    if pending:
        _reject_encoding(stream, offset - len(pending))


def _reject_encoding(stream: io.BufferedReader, bad: int) -> None:
    """Raise for the invalid byte at offset ``bad``, naming its line (counted only now)."""
    stream.seek(0)
    lines = 1
    while stream.tell() + _CHUNK_BYTES <= bad:
        lines += stream.read(_CHUNK_BYTES).count(b"\n")
    before = stream.read(bad - stream.tell())
    byte = stream.read(1)
    lines += before.count(b"\n")
    raise SubmissionRejected(
        f"file is not UTF-8 text: invalid byte 0x{byte.hex()} on line {lines}; save it as UTF-8"
    )


def _parse_header(head: bytes, start: int, size: int) -> tuple[tuple[str, ...], int]:
    text = codecs.getincrementaldecoder("utf-8")().decode(head[start:], final=False)
    stream = io.StringIO(text, newline="")  # the csv module splits lines itself
    try:
        row = next((row for row in csv.reader(stream) if row), None)
    except csv.Error as error:
        raise SubmissionRejected(f"cannot parse the header: {error}") from error
    if row is None:
        raise SubmissionRejected("file has no header (only blank lines)")
    end = start + len(text[: stream.tell()].encode("utf-8"))
    if end >= len(head) and size > len(head):
        raise SubmissionRejected("the header line is longer than 1 MB")
    return tuple(name.strip() for name in row), end


def read_columns(
    text: CsvText, types: Mapping[int, pa.DataType], *, streamed: bool = False
) -> dict[int, pa.ChunkedArray]:
    """Parse the data rows, returning the columns at the given header positions.

    A conversion failure (a value that is not a number in a float column) is not an error here:
    the columns are parsed again as text, and the caller's value checks explain the failure.

    Args:
        text: The checked CSV file.
        types: Arrow type of each wanted column, keyed by its position in the header.
        streamed: Parse with Arrow's streaming reader, a block at a time, handing the parser's
            freed buffers back as it goes: the same columns (one chunk per block), at a lower
            peak. Submissions are read so (the whole-file reader's parallel blocks added about
            50 MB to the six-column case's peak, for a few percent less CPU time), and answers
            of text metrics; other answers, the competition's own file, keep the whole-file
            reader.

    Raises:
        SubmissionRejected: The rows are not well-formed CSV or there are none.
    """
    try:
        return _read_long_rows(text, types, streamed)
    except pa.ArrowInvalid as error:
        if "conversion error" not in str(error):
            raise SubmissionRejected(_parse_error(error)) from error
    as_text = {position: pa.string() for position in types}
    try:
        return _read_long_rows(text, as_text, streamed)
    except pa.ArrowException as error:
        raise SubmissionRejected(_parse_error(error)) from error


ARROW_BLOCK_LIMIT = 2**31 - 1
"""Arrow's CSV reader holds its block size in a 32-bit integer."""


def _read_long_rows(
    text: CsvText, types: Mapping[int, pa.DataType], streamed: bool = False
) -> dict[int, pa.ChunkedArray]:
    """:func:`_read_typed`, once more in one block when a row is longer than Arrow's 1 MB block.

    Arrow's reader needs every row inside one block; a run-length mask of a 10⁹-pixel slide is a
    cell of several MB, so such a file is read again with a block as large as its data rows.
    """
    read = _read_streamed if streamed else _read_typed
    try:
        return read(text, types, None)
    except pa.ArrowInvalid as error:
        if "straddl" not in str(error):
            raise
    rows_bytes = text.path.stat().st_size - text.data_offset
    return read(text, types, min(max(rows_bytes, 1), ARROW_BLOCK_LIMIT))


def _options(
    text: CsvText, types: Mapping[int, pa.DataType], block_size: int | None
) -> dict[str, Any]:
    """The reader's options: columns named by position, only the wanted ones converted."""
    names = [f"c{position}" for position in range(len(text.header))]
    wanted = {f"c{position}": kind for position, kind in types.items()}
    return {
        # Threads: on an idle 2-CPU machine they take multi-class log loss on a million rows
        # from 0.80 s to about 0.5 s, for about 35 MB more peak memory (docs/benchmarks.md,
        # "Grading").
        "read_options": pa_csv.ReadOptions(
            column_names=names, use_threads=True, **_block(block_size)
        ),
        # check_utf8=False: open_text has checked the whole file already.
        "convert_options": pa_csv.ConvertOptions(
            column_types=wanted, include_columns=list(wanted), check_utf8=False
        ),
        "memory_pool": MEMORY_POOL,
    }


@contextmanager
def _data_rows(text: CsvText) -> Iterator[pa.NativeFile]:
    """The file opened at its first data row, for both readers; Arrow's "empty file" and the
    file system's errors while reading become rejections that name the file."""
    try:
        # The file's read buffers from the system pool too: Arrow's default pool (mimalloc)
        # keeps their freed pages resident (60 MB of h-and-m's peak, docs/benchmarks.md).
        with pa.OSFile(str(text.path), memory_pool=MEMORY_POOL) as stream:
            stream.seek(text.data_offset)
            yield stream
    except pa.ArrowInvalid as error:
        if "Empty CSV file" in str(error):
            raise SubmissionRejected(_NO_ROWS) from error
        raise
    except OSError as error:
        raise SubmissionRejected(f"cannot read {text.path}: {error}") from error


def _read_typed(
    text: CsvText, types: Mapping[int, pa.DataType], block_size: int | None = None
) -> dict[int, pa.ChunkedArray]:
    with _data_rows(text) as stream:
        table = pa_csv.read_csv(stream, **_options(text, types, block_size))
    if table.num_rows == 0:
        raise SubmissionRejected(_NO_ROWS)
    return {position: table.column(f"c{position}") for position in types}


def _block(block_size: int | None) -> dict[str, int]:
    return {} if block_size is None else {"block_size": block_size}


RELEASE_EVERY_BATCHES = 16
"""How often the streaming read hands the parser's freed buffers back (every 16 MB of text)."""


def _read_streamed(
    text: CsvText, types: Mapping[int, pa.DataType], block_size: int | None = None
) -> dict[int, pa.ChunkedArray]:
    """:func:`_read_typed` through Arrow's streaming reader: the same columns, one chunk per
    record batch; errors are Arrow's, as there."""
    chunks: dict[int, list[pa.Array]] = {position: [] for position in types}
    with _data_rows(text) as stream:
        reader = pa_csv.open_csv(stream, **_options(text, types, block_size))
        for number, batch in enumerate(reader):
            for position in types:
                chunks[position].append(batch.column(f"c{position}"))
            if number % RELEASE_EVERY_BATCHES == RELEASE_EVERY_BATCHES - 1:
                release_free_memory()
    if not chunks or not any(len(chunk) for chunk in next(iter(chunks.values()))):
        raise SubmissionRejected(_NO_ROWS)
    return {
        position: pa.chunked_array(arrays, type=types[position])
        for position, arrays in chunks.items()
    }


BATCH_BYTES = 1 << 20
"""Bytes of CSV text per record batch of :func:`read_batches`."""


def read_batches(
    text: CsvText, types: Mapping[int, pa.DataType], *, block_bytes: int = BATCH_BYTES
) -> Iterator[dict[int, pa.Array]]:
    """Parse the data rows as a stream of record batches, each about ``block_bytes`` of text.

    The types, the options and the rows are those of :func:`read_columns`; only the columns at
    the given header positions are converted. Arrow's threads parse the next blocks while the
    caller works on this one, so memory stays bounded by a few blocks, whatever the file's size.

    Raises:
        SubmissionRejected: The file cannot be read, a row is not well-formed CSV, or a value
            does not convert to its column's type (the message then says only that; the caller
            that needs to name the value reads the file with :func:`read_columns`).
    """
    names = [f"c{position}" for position in range(len(text.header))]
    wanted = {f"c{position}": kind for position, kind in types.items()}
    try:
        with pa.OSFile(str(text.path), memory_pool=MEMORY_POOL) as stream:
            stream.seek(text.data_offset)
            reader = pa_csv.open_csv(
                stream,
                read_options=pa_csv.ReadOptions(
                    column_names=names, use_threads=True, block_size=block_bytes
                ),
                convert_options=pa_csv.ConvertOptions(
                    column_types=wanted, include_columns=list(wanted), check_utf8=False
                ),
                memory_pool=MEMORY_POOL,
            )
            for batch in reader:
                yield {position: batch.column(f"c{position}") for position in types}
    except pa.ArrowInvalid as error:
        if "Empty CSV file" in str(error):
            raise SubmissionRejected(_NO_ROWS) from error
        raise SubmissionRejected(_parse_error(error)) from error
    except (pa.ArrowException, OSError) as error:
        raise SubmissionRejected(f"cannot read {text.path}: {error}") from error


# The single-threaded reader prefixes the row number (``Row #2: ``); the row is quoted instead.
_FIELD_COUNT = re.compile(r"(?:Row #\d+: )?Expected (\d+) columns, got (\d+): ?(.*)", re.DOTALL)


def _parse_error(error: pa.ArrowException) -> str:
    message = str(error).removeprefix("CSV parse error: ")
    match = _FIELD_COUNT.match(message)
    if match:
        wanted, got, row = match.groups()
        fields = "field" if got == "1" else "fields"
        return (
            f"malformed CSV: a row has {got} {fields}, the header has {wanted}: {show_value(row)}"
        )
    first_line = message.strip().split("\n", 1)[0] or type(error).__name__
    return f"malformed CSV: {show_value(first_line, limit=160)}"
