"""Write one zip member to disk: read straight from the archive's file descriptor, CRC-checked.

Kaggle's image archives hold tens of thousands of small members. ``zipfile`` gives each one a
file object that seeks and reads in small steps under a lock; here a member's local header and
compressed bytes come with one ``os.pread`` (no shared file position, so several threads can
read one descriptor at once), ``zlib`` inflates them (it releases the GIL, so threads inflate in
parallel) and ``os.write`` writes them. Three ways, by member:

- **small** (up to :data:`WHOLE_LIMIT` bytes, stored or deflated): inflated in memory and
  CRC-checked *before* the target is created, then written under its final name. An
  interruption can leave only a file shorter than its member, which a resume rewrites.
- **large** (stored or deflated): streamed in :data:`CHUNK` steps to a temporary name beside the
  target and renamed once its CRC-32 checked, so its final name always holds a whole file.
- anything else (bzip2, lzma, encrypted): through ``zipfile`` itself, like a large member.

Memory per call: at most :data:`WHOLE_LIMIT` plus its compressed bytes, or a few :data:`CHUNK`s.
"""

from __future__ import annotations

import os
import struct
import threading
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path

CHUNK = 1 << 20
WHOLE_LIMIT = 8 << 20
PART_SUFFIX = ".mlebench-part"
LOCAL_HEADER = struct.Struct("<4s5H3I2H")  # signature ... name length, extra length
LOCAL_SIGNATURE = b"PK\x03\x04"
HEADER_SLACK = 512  # room for the local name and extra field, read with the data in one go
DIRECT_METHODS = frozenset({zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED})
NEW_FILE = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_CLOEXEC", 0)
# The target's last component is never followed: a link left in ``raw/`` cannot redirect a write.
NEW_FILE |= getattr(os, "O_NOFOLLOW", 0)


class DamagedMember(Exception):
    """A member's bytes do not match its directory entry (truncated, bad header, CRC-32)."""


class Stopped(Exception):
    """Another member failed or the run was interrupted: this one was left unfinished."""


def write_member(
    bundle: zipfile.ZipFile, fd: int, member: zipfile.ZipInfo, path: Path, stop: threading.Event
) -> None:
    """Write ``member`` of ``bundle`` (open as ``fd`` too) to ``path``, checked.

    Raises:
        DamagedMember: The member is truncated or fails its CRC-32 check.
        Stopped: ``stop`` was set while a large member was being written.
    """
    direct = member.compress_type in DIRECT_METHODS and not member.flag_bits & 0x1
    if direct and member.file_size <= WHOLE_LIMIT:
        _write_new(path, read_whole(fd, member))
    elif direct:
        _write_renamed(path, stream_member(fd, member), stop)
    else:
        _write_renamed(path, _through_zipfile(bundle, member), stop)


def read_whole(fd: int, member: zipfile.ZipInfo) -> bytes:
    """The content of a stored or deflated ``member``, inflated and CRC-checked."""
    block = os.pread(
        fd, LOCAL_HEADER.size + HEADER_SLACK + member.compress_size, member.header_offset
    )
    start = _data_start(block, member)
    end = start + member.compress_size
    if len(block) < end:
        block += _pread_exactly(fd, end - len(block), member.header_offset + len(block))
    raw = memoryview(block)[start:end]
    if member.compress_type == zipfile.ZIP_STORED:
        data = bytes(raw)
    else:
        data = zlib.decompress(raw, -zlib.MAX_WBITS, max(member.file_size, 1))
    _check(member, len(data), zlib.crc32(data))
    return data


def stream_member(fd: int, member: zipfile.ZipInfo) -> Iterator[bytes]:
    """The content of a stored or deflated ``member`` in pieces of at most :data:`CHUNK` bytes.

    The CRC-32 and size are checked after the last piece (:class:`DamagedMember` then).
    """
    head = os.pread(fd, LOCAL_HEADER.size + HEADER_SLACK, member.header_offset)
    offset = member.header_offset + _data_start(head, member)
    inflater = zlib.decompressobj(-zlib.MAX_WBITS)
    deflated = member.compress_type == zipfile.ZIP_DEFLATED
    crc = size = 0
    for raw in _compressed_chunks(fd, offset, member.compress_size):
        for piece in _inflate(inflater, raw) if deflated else (raw,):
            crc, size = zlib.crc32(piece, crc), size + len(piece)
            yield piece
    if deflated and not inflater.eof:
        raise DamagedMember("the compressed data ends early")
    _check(member, size, crc)


def _compressed_chunks(fd: int, offset: int, length: int) -> Iterator[bytes]:
    while length:
        raw = _pread_exactly(fd, min(CHUNK, length), offset)
        offset, length = offset + len(raw), length - len(raw)
        yield raw


def _inflate(inflater: zlib._Decompress, raw: bytes) -> Iterator[bytes]:
    """Inflate ``raw`` in outputs of at most :data:`CHUNK` bytes (a zip bomb stays bounded)."""
    while True:
        piece = inflater.decompress(raw, CHUNK)
        if piece:
            yield piece
        raw = inflater.unconsumed_tail
        if not raw and len(piece) < CHUNK:
            return


def _through_zipfile(bundle: zipfile.ZipFile, member: zipfile.ZipInfo) -> Iterator[bytes]:
    with bundle.open(member) as source:
        while piece := source.read(CHUNK):
            yield piece


def _data_start(block: bytes, member: zipfile.ZipInfo) -> int:
    """Where the member's compressed data starts, counted from its local header."""
    if len(block) < LOCAL_HEADER.size:
        raise DamagedMember("the archive ends inside its local header")
    fields = LOCAL_HEADER.unpack_from(block)
    if fields[0] != LOCAL_SIGNATURE:
        raise DamagedMember("bad local header")
    name_length: int = fields[-2]
    extra_length: int = fields[-1]
    name = block[LOCAL_HEADER.size : LOCAL_HEADER.size + name_length]
    if len(name) == name_length and _decoded(name, member) != member.orig_filename:
        raise DamagedMember("its local header names another file")
    return LOCAL_HEADER.size + name_length + extra_length


def _decoded(name: bytes, member: zipfile.ZipInfo) -> str:
    return name.decode("utf-8" if member.flag_bits & 0x800 else "cp437", "replace")


def _pread_exactly(fd: int, length: int, offset: int) -> bytes:
    block = os.pread(fd, length, offset)
    if len(block) != length:
        raise DamagedMember("the archive ends early")
    return block


def _check(member: zipfile.ZipInfo, size: int, crc: int) -> None:
    if size != member.file_size:
        raise DamagedMember(f"{size} bytes instead of {member.file_size}")
    if crc != member.CRC:
        raise DamagedMember("bad CRC-32")


def _write_new(path: Path, data: bytes) -> None:
    fd = os.open(path, NEW_FILE, 0o666)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view) :]
    finally:
        os.close(fd)


def _write_renamed(path: Path, pieces: Iterator[bytes], stop: threading.Event) -> None:
    part = path.with_name(path.name + PART_SUFFIX)
    try:
        with part.open("wb") as sink:
            for piece in pieces:
                if stop.is_set():
                    raise Stopped(str(path))
                sink.write(piece)
    except BaseException:
        part.unlink(missing_ok=True)
        raise
    os.replace(part, path)
