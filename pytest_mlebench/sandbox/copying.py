"""Copying an agent's files out to the host, safely: no links followed, every byte bounded.

Both backends use these rules for ``copy_out``: symbolic links, FIFOs, devices and sockets are
never opened (an agent can plant ``logs/escape -> /`` or a FIFO that blocks a reader for ever);
every file is read in fixed-size chunks, never more than the apparent size it was admitted with
(a file that grows while it is copied is cut there); and every write is admitted first by the
run's :class:`~pytest_mlebench.sandbox.copy_budget.CopyBudget` (a total, a per-file cap, an entry
count, a depth), so a sparse file or a million small ones cannot fill the host's disk. The Docker
backend reads the engine's tar stream member by member, without saving the archive, and stops
reading it once it has passed the budget's total by :data:`STREAM_SLACK`.
"""

from __future__ import annotations

import logging
import os
import stat
import tarfile
from collections.abc import Iterable, Iterator
from pathlib import Path, PurePosixPath
from typing import IO

from pytest_mlebench.sandbox.copy_budget import CopyBudget

log = logging.getLogger(__name__)

CHUNK = 1 << 20
STREAM_SLACK = 2  # an archive stream is read up to this many times the budget's total


def write_omitted_note(destination: Path, why: str, budget: CopyBudget) -> None:
    """Leave ``<destination>.omitted.txt`` saying why ``destination`` was not copied (within
    the budget: nothing is written once it has stopped)."""
    text = f"not copied out of the sandbox: {why}\n"
    note = destination.with_name(destination.name + ".omitted.txt")
    if budget.admit_file(note, len(text.encode()), None):
        note.parent.mkdir(parents=True, exist_ok=True)
        note.write_text(text, "utf-8")


def copy_tree_out(
    source: Path, destination: Path, max_file_bytes: int | None, budget: CopyBudget
) -> bool:
    """Copy a host-side file or folder of the sandbox; False when there is nothing there.

    A ``source`` that is a link or not a regular file or folder leaves a note instead.
    """
    try:
        info = source.lstat()
    except OSError:
        return False
    if not (stat.S_ISREG(info.st_mode) or stat.S_ISDIR(info.st_mode)):
        budget.leave(destination, info.st_size, _kind(info.st_mode))
        write_omitted_note(destination, _kind(info.st_mode), budget)
        return True
    if stat.S_ISREG(info.st_mode):
        _copy_file(source, destination, info.st_size, max_file_bytes, budget)
        return True
    for here, relative, entries in _walk(source, budget, destination):
        target = destination / relative
        if not budget.admit_folder(target):
            return True
        target.mkdir(parents=True, exist_ok=True)
        for name, entry in entries:
            path = target / name
            if stat.S_ISREG(entry.st_mode):
                _copy_file(here / name, path, entry.st_size, max_file_bytes, budget)
            elif not stat.S_ISDIR(entry.st_mode):
                budget.leave(path, entry.st_size, _kind(entry.st_mode))
            if budget.stopped:
                return True
    return True


def _walk(
    root: Path, budget: CopyBudget, destination: Path
) -> Iterator[tuple[Path, PurePosixPath, list[tuple[str, os.stat_result]]]]:
    """Folders below ``root`` (links never followed), each with its entries' ``lstat``; an
    explicit stack, so a deep tree costs no recursion, and folders past the budget's depth left
    behind."""
    stack = [(root, PurePosixPath("."))]
    while stack and not budget.stopped:
        here, relative = stack.pop()
        entries = []
        try:
            with os.scandir(here) as listing:
                for item in listing:
                    entries.append((item.name, item.stat(follow_symlinks=False)))
        except OSError as exc:
            budget.leave(destination / relative, 0, f"unreadable folder ({exc.strerror})")
            continue
        entries.sort()
        yield here, relative, entries
        for name, entry in reversed(entries):
            below = relative / name
            if stat.S_ISDIR(entry.st_mode) and budget.admit_path(below, 0, destination / below):
                stack.append((here / name, below))


def _kind(mode: int) -> str:
    if stat.S_ISLNK(mode):
        return "a symbolic link (never followed)"
    if stat.S_ISFIFO(mode):
        return "a FIFO, not a regular file"
    if stat.S_ISSOCK(mode):
        return "a socket, not a regular file"
    return "a device or other special file, not a regular file"


def _copy_file(
    source: Path, destination: Path, size: int, max_file_bytes: int | None, budget: CopyBudget
) -> None:
    if not budget.admit_file(destination, size, max_file_bytes):
        return
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(source, flags)  # a file swapped for a link or a FIFO meanwhile fails here
    except OSError as exc:
        budget.leave(destination, size, f"could not be opened ({exc.strerror})")
        return
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            budget.leave(destination, size, "no longer a regular file")
            return
        destination.parent.mkdir(parents=True, exist_ok=True)
        with destination.open("wb") as out:
            copy_bounded(handle, out, size)


def copy_bounded(source: IO[bytes] | tarfile.ExFileObject, out: IO[bytes], size: int) -> int:
    """Copy at most ``size`` bytes from ``source`` to ``out`` in :data:`CHUNK` pieces; a piece
    of zeros is skipped over, not written, so a sparse file stays sparse on the host too."""
    left = size
    while left > 0:
        data = source.read(min(CHUNK, left))
        if not data:
            break
        if data.count(0) == len(data):
            out.seek(len(data), os.SEEK_CUR)
        else:
            out.write(data)
        left -= len(data)
    out.truncate(size - left)  # the length, holes at the end included
    return size - left


class ChunkReader:
    """A read-only file over an iterator of byte chunks (the engine's archive stream).

    Each chunk is sliced once per read, never copied whole again (a 512 MB stream is read in
    linear time), and after ``limit`` bytes the reader ends as if the stream had: :attr:`cut`
    says it did.
    """

    def __init__(self, chunks: Iterable[bytes], limit: int | None = None) -> None:
        self._chunks: Iterator[bytes] = iter(chunks)
        self._chunk = b""
        self._offset = 0
        self.limit = limit
        self.read_bytes = 0
        self.cut = False

    def read(self, size: int = CHUNK) -> bytes:
        """Up to ``size`` bytes (a negative size reads one :data:`CHUNK`, never the rest)."""
        size = CHUNK if size < 0 else size
        if self.limit is not None:
            size = min(size, self.limit - self.read_bytes)
            if size <= 0:
                self.cut = True
                return b""
        out = bytearray()
        while len(out) < size:
            if self._offset >= len(self._chunk):
                chunk = next(self._chunks, None)
                if chunk is None:
                    break
                self._chunk, self._offset = chunk, 0
                continue
            piece = self._chunk[self._offset : self._offset + size - len(out)]
            out += piece
            self._offset += len(piece)
        self.read_bytes += len(out)
        return bytes(out)


def extract_stream(
    archive: ChunkReader, destination: Path, max_file_bytes: int | None, budget: CopyBudget
) -> bool:
    """Unpack a ``get_archive`` tar stream (one top entry) to ``destination``, member by member.

    Regular files and folders only: links, devices and paths leaving the top entry are left
    behind (and noted). A stream cut at its byte limit or broken stops the copy-out.
    """
    try:
        return _extract(archive, destination, max_file_bytes, budget)
    except (tarfile.TarError, EOFError) as exc:
        if archive.cut:
            budget.capped = f"the archive stream passed {archive.limit} bytes"
        else:
            budget.capped = f"the archive stream broke ({exc})"
        budget.leave(destination, 0, budget.capped)
        return True


def _extract(
    archive: ChunkReader, destination: Path, max_file_bytes: int | None, budget: CopyBudget
) -> bool:
    with tarfile.open(fileobj=archive, mode="r|") as tar:  # type: ignore[call-overload]
        top = tar.next()
        if top is None:
            return False
        if not (top.isfile() or top.isdir()):
            budget.leave(destination, top.size, _member_kind(top))
            write_omitted_note(destination, _member_kind(top), budget)
            return True
        prefix = top.name.rstrip("/")
        _extract_member(tar, top, destination, max_file_bytes, budget)
        for member in tar:  # a stream TarFile yields the members it already read first
            if budget.stopped:
                break
            if member is top:
                continue
            relative = PurePosixPath(member.name[len(prefix) :].lstrip("/"))
            target = destination / relative
            if not member.name.startswith(prefix + "/") or ".." in relative.parts:
                budget.leave(target, member.size, f"outside {prefix}")
                continue
            if budget.admit_path(relative, member.size, target):
                _extract_member(tar, member, target, max_file_bytes, budget)
    return True


def _member_kind(member: tarfile.TarInfo) -> str:
    if member.issym() or member.islnk():
        return "a link (never followed)"
    if member.isfifo():
        return "a FIFO, not a regular file"
    return "a device or other special file, not a regular file"


def _extract_member(
    tar: tarfile.TarFile,
    member: tarfile.TarInfo,
    target: Path,
    max_file_bytes: int | None,
    budget: CopyBudget,
) -> None:
    if member.isdir():
        if budget.admit_folder(target):
            target.mkdir(parents=True, exist_ok=True)
        return
    if not member.isfile():
        budget.leave(target, member.size, _member_kind(member))
        return
    if not budget.admit_file(target, member.size, max_file_bytes):
        return
    source = tar.extractfile(member)
    if source is None:
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    with source, target.open("wb") as handle:
        copy_bounded(source, handle, member.size)
