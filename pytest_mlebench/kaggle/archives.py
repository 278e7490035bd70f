"""Unpack Kaggle's zips into ``raw/`` member by member, so that an interrupted run resumes.

Every member is streamed to a temporary name beside its target and renamed into place only when
all its bytes were written and its CRC-32 checked (``zipfile`` checks it at the end of each
member), so a file with its final name is always whole. A later run skips members whose target
already has the right size, and archives listed in ``raw/.extracted`` as finished. Zips found
inside the extracted files (Kaggle's ``train.zip`` inside ``<id>.zip``) are unpacked beside
themselves and then deleted. ``raw/.complete`` is written last. Nothing reads a whole member
into memory; memory stays bounded by the archive's directory (about 1 KB per member).
"""

from __future__ import annotations

import os
import shutil
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import TextIO

from pytest_mlebench.errors import DataNotPrepared
from pytest_mlebench.kaggle.progress import ByteProgress

COMPLETE_MARKER = ".complete"
EXTRACTED_LOG = ".extracted"
PART_SUFFIX = ".mlebench-part"
COPY_BUFFER = 1 << 20
MAX_NESTING = 5


class ArchiveCorrupted(Exception):
    """An archive failed its CRC or structure check; downloading it again may help."""

    def __init__(self, archive: Path, reason: str) -> None:
        super().__init__(f"{archive.name} is damaged ({reason})")
        self.archive = archive


def raw_is_complete(raw: Path) -> bool:
    """Whether ``raw`` was fully extracted (its ``.complete`` marker exists)."""
    return (raw / COMPLETE_MARKER).is_file()


def extract_archives(
    download: Path, raw: Path, *, stream: TextIO | None = None, keep: bool = True
) -> None:
    """Extract every ``*.zip`` of ``download`` into ``raw`` (nested ones too); mark it complete.

    Resumes an interrupted extraction. ``keep=False`` deletes each top-level archive once it is
    fully extracted (the nested ones are always deleted).

    Raises:
        ArchiveCorrupted: A member failed its CRC check or an archive cannot be read.
        DataNotPrepared: A member's name points outside ``raw``.
    """
    raw.mkdir(parents=True, exist_ok=True)
    done = _finished(raw)
    for archive in sorted(download.glob("*.zip")):
        key = f"download/{archive.name}"
        if key not in done:
            extract_zip(archive, raw, stream=stream)
            _mark_finished(raw, key)
        if not keep:
            archive.unlink()
    extract_nested(raw, stream=stream)
    (raw / COMPLETE_MARKER).write_text("ok\n")


def extract_nested(raw: Path, *, stream: TextIO | None = None) -> None:
    """Unpack every zip under ``raw`` beside itself and delete it, several levels deep."""
    for _level in range(MAX_NESTING):
        nested = sorted(_zips_under(raw))
        if not nested:
            return
        for archive in nested:
            extract_zip(archive, archive.parent, stream=stream)
            archive.unlink()


def _zips_under(raw: Path) -> Iterator[Path]:
    for folder, _dirs, files in os.walk(raw):
        for name in files:
            if name.lower().endswith(".zip"):
                yield Path(folder) / name


def extract_zip(archive: Path, target: Path, *, stream: TextIO | None = None) -> int:
    """Stream every member of ``archive`` into ``target``; returns how many were written.

    Members already present with their final size are skipped, so calling this again after an
    interruption finishes the job.
    """
    try:
        bundle = zipfile.ZipFile(archive)
    except (zipfile.BadZipFile, OSError) as exc:
        raise ArchiveCorrupted(archive, str(exc)) from exc
    with bundle:
        members = bundle.infolist()
        guard = _TraversalGuard(target)
        progress = ByteProgress(
            f"  extracting {archive.name}", sum(m.file_size for m in members), stream=stream
        )
        written = done = 0
        for member in members:
            path = guard.target_of(member.filename)
            if _extract_member(bundle, member, path):
                written += 1
            done += member.file_size
            progress.update(done)
        progress.finish(done)
    return written


def _extract_member(bundle: zipfile.ZipFile, member: zipfile.ZipInfo, path: Path) -> bool:
    if member.is_dir():
        path.mkdir(parents=True, exist_ok=True)
        return False
    if _already_there(path, member.file_size):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + PART_SUFFIX)
    try:
        with bundle.open(member) as source, part.open("wb") as sink:
            shutil.copyfileobj(source, sink, COPY_BUFFER)
    except (zipfile.BadZipFile, EOFError, zlib.error) as exc:
        part.unlink(missing_ok=True)
        raise ArchiveCorrupted(Path(str(bundle.filename)), f"{member.filename}: {exc}") from exc
    os.replace(part, path)
    return True


def _already_there(path: Path, size: int) -> bool:
    try:
        return path.stat().st_size == size
    except OSError:
        return False


class _TraversalGuard:
    """Refuses member names that would land outside the target folder.

    Names are checked as text (absolute paths, ``..``) and each distinct parent folder is
    resolved once, which also catches a symbolic link inside the target pointing out of it.
    """

    def __init__(self, target: Path) -> None:
        self._target = target
        self._root = target.resolve()
        self._checked: set[PurePosixPath] = set()

    def target_of(self, name: str) -> Path:
        relative = PurePosixPath(name.replace("\\", "/"))
        if relative.is_absolute() or ".." in relative.parts or ":" in "".join(relative.parts[:1]):
            self._refuse(name)
        if relative.parent not in self._checked:
            parent = (self._root / relative.parent).resolve()
            if not parent.is_relative_to(self._root):
                self._refuse(name)
            self._checked.add(relative.parent)
        return self._target.joinpath(*relative.parts)

    def _refuse(self, name: str) -> None:
        raise DataNotPrepared(f"archive member {name!r} escapes {self._target}", "(bad archive)")


def _finished(raw: Path) -> set[str]:
    log = raw / EXTRACTED_LOG
    return set(log.read_text("utf-8").splitlines()) if log.is_file() else set()


def _mark_finished(raw: Path, key: str) -> None:
    with (raw / EXTRACTED_LOG).open("a", encoding="utf-8") as log:
        log.write(key + "\n")
