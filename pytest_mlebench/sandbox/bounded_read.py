"""Reading what came out of a sandbox: fixed-size chunks, a byte bound, never a whole file.

A file an agent left is hostile input: it may be sparse (5 GiB that cost nothing), one line with
no line break, binary, a link planted where a file was expected, or a FIFO that blocks its
reader for ever. Every reader of sandbox output on the host goes through these functions (or
streams the same way itself, as the copy-out and the validator's fingerprint do):

- :func:`open_regular` opens without following a link and without blocking on a FIFO, and
  refuses anything that is not a regular file;
- :func:`iter_chunks` yields at most ``max_bytes`` in :data:`CHUNK` pieces;
- :func:`iter_lines` yields lines cut at ``max_line`` bytes (the rest of a longer line is read
  past, never kept), from at most ``max_bytes`` of the file;
- :func:`read_head` / :func:`read_tail` return a bounded piece of a file.

Memory stays at one chunk plus one line, whatever the file is.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

CHUNK = 1 << 20
MAX_LINE_BYTES = 64 * 1024


class NotARegularFile(OSError):
    """The path is a link, FIFO, socket, device or folder: it is not read."""


def open_regular(path: Path) -> BinaryIO:
    """``path`` opened for reading in binary, never through a link and never blocking.

    Raises:
        NotARegularFile: ``path`` is not a regular file (a link counts as not one).
        OSError: It cannot be opened.
    """
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        if os.path.islink(path):
            raise NotARegularFile(f"{path} is a symbolic link") from exc
        raise
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise NotARegularFile(f"{path} is not a regular file")
    return os.fdopen(fd, "rb")


def iter_chunks(path: Path, max_bytes: int) -> Iterator[bytes]:
    """The first ``max_bytes`` of ``path`` in pieces of at most :data:`CHUNK` bytes."""
    left = max_bytes
    with open_regular(path) as handle:
        while left > 0:
            data = handle.read(min(CHUNK, left))
            if not data:
                return
            left -= len(data)
            yield data


def iter_lines(path: Path, max_bytes: int, max_line: int = MAX_LINE_BYTES) -> Iterator[bytes]:
    """The lines (without their ``\\n``) of the first ``max_bytes`` of ``path``, each cut at
    ``max_line`` bytes; a last line without a line break is yielded too."""
    line = bytearray()
    over = False  # the current line passed max_line: its rest is skipped
    for chunk in iter_chunks(path, max_bytes):
        start = 0
        while start < len(chunk):
            end = chunk.find(b"\n", start)
            stop = len(chunk) if end < 0 else end
            if not over:
                room = max_line - len(line)
                line += chunk[start : start + min(stop - start, room)]
                over = stop - start > room
            if end < 0:
                break
            yield bytes(line)
            line.clear()
            over = False
            start = end + 1
    if line:
        yield bytes(line)


def read_head(path: Path, max_bytes: int) -> bytes:
    """At most the first ``max_bytes`` of ``path``."""
    return b"".join(iter_chunks(path, max_bytes))


def read_tail(path: Path, max_bytes: int) -> bytes:
    """At most the last ``max_bytes`` of ``path`` (read from its end, whatever its size)."""
    with open_regular(path) as handle:
        size = os.fstat(handle.fileno()).st_size
        handle.seek(max(0, size - max_bytes))
        return handle.read(max_bytes)


def text_lines(path: Path, max_bytes: int, max_line: int = MAX_LINE_BYTES) -> Iterator[str]:
    """:func:`iter_lines` decoded as UTF-8 (bad bytes replaced); nothing for a path that is not
    a readable regular file."""
    try:
        for line in iter_lines(path, max_bytes, max_line):
            yield line.decode("utf-8", errors="replace").rstrip("\r")
    except OSError:
        return
