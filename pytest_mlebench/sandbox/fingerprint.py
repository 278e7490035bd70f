"""A cheap per-call fingerprint of a submission sent to the validator.

The validator keeps, for every call, the file's SHA-256, its row count and a *row sketch*: the
rows (lines after the header) are dealt into :data:`BUCKETS` buckets by row index and each bucket
gets a 16-bit hash of its rows. Two submissions that differ in ``k`` rows differ in at most ``k``
buckets, so many calls whose sketches differ in one or two buckets are a run of near-identical
submissions — the signature of probing the validator row by row. One pass over the file, 128
characters per call; the file itself is never kept.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

BUCKETS = 32
BUCKET_HEX = 4  # 16 bits per bucket
CHUNK = 1 << 20


@dataclass(frozen=True)
class SubmissionFingerprint:
    """SHA-256 of the file, its number of rows (header excluded) and the row sketch."""

    sha256: str
    rows: int
    sketch: str


def fingerprint_file(path: Path) -> SubmissionFingerprint:
    """The fingerprint of the submission at ``path``: one pass in fixed-size chunks, so a
    2 GiB upload without a line break costs one chunk of memory, never one line."""
    whole = hashlib.sha256()
    rows = _RowSketch()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            whole.update(chunk)
            rows.feed(chunk)
    return SubmissionFingerprint(whole.hexdigest(), rows.count(), rows.sketch())


class _RowSketch:
    """Rows dealt into buckets as their bytes arrive, a piece at a time.

    A row's bytes go into its bucket without its line break and without the carriage returns
    that end it (those are held back until a later byte shows they were inside the row), then
    one ``\n``: what hashing each whole row, stripped of ``\r\n``, would give.
    """

    def __init__(self) -> None:
        self.buckets = [hashlib.blake2b(digest_size=BUCKET_HEX // 2) for _ in range(BUCKETS)]
        self.lines = 0  # complete lines so far, the header included
        self.open_line = False  # bytes of a line without its line break yet
        self.held_returns = 0

    def feed(self, chunk: bytes) -> None:
        start = 0
        while start < len(chunk):
            end = chunk.find(b"\n", start)
            stop = len(chunk) if end < 0 else end
            self._piece(chunk[start:stop])
            if end < 0:
                return
            self._end_line()
            start = end + 1

    def _piece(self, piece: bytes) -> None:
        if not piece:
            return
        self.open_line = True
        if self.lines == 0:  # the header is not a row
            return
        body = piece.rstrip(b"\r")
        if body:
            bucket = self.buckets[(self.lines - 1) % BUCKETS]
            bucket.update(b"\r" * self.held_returns + body)
            self.held_returns = 0
        self.held_returns += len(piece) - len(body)

    def _end_line(self) -> None:
        if self.lines > 0:
            self.buckets[(self.lines - 1) % BUCKETS].update(b"\n")
        self.lines += 1
        self.open_line = False
        self.held_returns = 0

    def count(self) -> int:
        """Rows, header excluded (a last line without a line break counts)."""
        if self.open_line:
            self._end_line()
        return max(self.lines - 1, 0)

    def sketch(self) -> str:
        return "".join(bucket.hexdigest() for bucket in self.buckets)


def buckets_apart(first: str, second: str) -> int:
    """In how many buckets two sketches differ (all of them when their lengths differ)."""
    if len(first) != len(second) or len(first) % BUCKET_HEX:
        return BUCKETS
    return sum(
        first[i : i + BUCKET_HEX] != second[i : i + BUCKET_HEX]
        for i in range(0, len(first), BUCKET_HEX)
    )
