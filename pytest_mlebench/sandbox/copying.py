"""Copying an agent's files out to the host, safely: no links followed, no giant files.

Both backends use these rules for ``copy_out``: symbolic links are never followed (an agent can
plant ``logs/escape -> /``), and a file larger than ``max_file_bytes`` is left behind with a
``<name>.omitted.txt`` note, so a 1 GB log cannot fill the host's disk. The Docker backend reads
the engine's tar stream member by member without first saving the whole archive.
"""

from __future__ import annotations

import logging
import os
import shutil
import tarfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO

log = logging.getLogger(__name__)


def write_omitted_note(destination: Path, size: int, limit: int) -> None:
    """Leave ``<destination>.omitted.txt`` saying why the file was not copied."""
    destination.parent.mkdir(parents=True, exist_ok=True)
    note = destination.with_name(destination.name + ".omitted.txt")
    note.write_text(f"not copied out of the sandbox: {size} bytes, over the {limit} byte limit\n")


def copy_tree_out(source: Path, destination: Path, max_file_bytes: int | None) -> bool:
    """Copy a host-side file or folder of the sandbox; links are skipped, big files noted."""
    if source.is_symlink() or not source.exists():
        return False
    if source.is_file():
        return _copy_file(source, destination, max_file_bytes)
    for folder, dirs, files in os.walk(source):  # os.walk does not follow links by default
        here = Path(folder)
        target = destination / here.relative_to(source)
        target.mkdir(parents=True, exist_ok=True)
        dirs[:] = [d for d in dirs if not (here / d).is_symlink()]
        for name in files:
            path = here / name
            if not path.is_symlink():
                _copy_file(path, target / name, max_file_bytes)
    return True


def _copy_file(source: Path, destination: Path, max_file_bytes: int | None) -> bool:
    size = source.stat().st_size
    if max_file_bytes is not None and size > max_file_bytes:
        write_omitted_note(destination, size, max_file_bytes)
        return True
    destination.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, destination)
    return True


class ChunkReader:
    """A read-only file over an iterator of byte chunks (the engine's archive stream)."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._chunks: Iterator[bytes] = iter(chunks)
        self._buffer = b""

    def read(self, size: int = -1) -> bytes:
        while size < 0 or len(self._buffer) < size:
            chunk = next(self._chunks, None)
            if chunk is None:
                break
            self._buffer += chunk
        if size < 0:
            data, self._buffer = self._buffer, b""
        else:
            data, self._buffer = self._buffer[:size], self._buffer[size:]
        return data


def extract_stream(
    archive: IO[bytes] | ChunkReader, destination: Path, max_file_bytes: int | None
) -> bool:
    """Unpack a ``get_archive`` tar stream (one top entry) to ``destination``, member by member.

    Regular files and folders only: links, devices and paths leaving the top entry are skipped.
    """
    with tarfile.open(fileobj=archive, mode="r|") as tar:  # type: ignore[call-overload]
        top = tar.next()
        if top is None or not (top.isfile() or top.isdir()):
            return False
        prefix = top.name.rstrip("/")
        _extract_member(tar, top, destination, max_file_bytes)
        for member in tar:  # a stream TarFile yields the members it already read first
            if member is top:
                continue
            relative = member.name[len(prefix) :].lstrip("/")
            if not member.name.startswith(prefix + "/") or ".." in Path(relative).parts:
                log.warning("not copying %s out of the sandbox: outside %s", member.name, prefix)
                continue
            _extract_member(tar, member, destination / relative, max_file_bytes)
    return True


def _extract_member(
    tar: tarfile.TarFile, member: tarfile.TarInfo, target: Path, max_file_bytes: int | None
) -> None:
    if member.isdir():
        target.mkdir(parents=True, exist_ok=True)
        return
    if not member.isfile():
        log.warning("not copying %s out of the sandbox: not a regular file", member.name)
        return
    if max_file_bytes is not None and member.size > max_file_bytes:
        write_omitted_note(target, member.size, max_file_bytes)
        return
    source = tar.extractfile(member)
    if source is None:
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    with source, target.open("wb") as handle:
        shutil.copyfileobj(source, handle)
