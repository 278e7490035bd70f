"""Unpack Kaggle's zips into ``raw/`` member by member, so that an interrupted run resumes.

Before anything is written, every member's name is checked (none may land outside the target)
and the members whose target already exists with the right size are dropped; that costs one
folder listing per folder and a ``stat`` only for names found. The rest are cut into batches of
consecutive members that :data:`THREADS` threads write (:mod:`.zip_members`: CRC-checked, read
with ``pread``, inflated by ``zlib`` outside the GIL). The first failure, or Ctrl-C, stops every
thread before its next member.

What an interruption leaves, and why resuming is right: a small member is checked before its
file is created and then written under its final name, so a cut-off one is shorter than its
member; a large one is written under a temporary name and renamed when whole. Either way, a
target with the member's size is whole, and the next run skips exactly those and rewrites the
rest. (Like ``unzip``, nothing is ``fsync``-ed: after a power cut, delete ``raw/`` and
prepare again.) Archives listed in ``raw/.extracted`` are skipped whole. Zips found inside the
extracted files (Kaggle's ``train.zip`` inside ``<id>.zip``) are unpacked beside themselves and
then deleted. ``raw/.complete`` is written last.

Memory stays bounded: the archive's directory (about 1 KB per member) plus, per thread, one
member of up to :data:`~.zip_members.WHOLE_LIMIT` bytes or a few 1 MB pieces of a larger one.
"""

from __future__ import annotations

import os
import threading
import zipfile
import zlib
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import TextIO

from pytest_mlebench.errors import DataNotPrepared
from pytest_mlebench.kaggle.download_progress import ByteProgress
from pytest_mlebench.kaggle.zip_members import DamagedMember, Stopped, write_member

COMPLETE_MARKER = ".complete"
EXTRACTED_LOG = ".extracted"
MAX_NESTING = 5
# Threads that write members: zlib and file I/O release the GIL, so two CPUs inflate in parallel
# and the extra threads keep both busy while others wait on the file system.
THREADS = min(4, 2 * (os.cpu_count() or 1))
BATCH_BYTES = 16 << 20  # a batch: about this many compressed bytes, counting per-member costs
BATCH_MEMBER_COST = 64 << 10  # creating a file costs about as much as inflating this much


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
        total = sum(member.file_size for member in members)
        progress = ByteProgress(f"  extracting {archive.name}", total, stream=stream)
        todo = _members_to_write(members, target)
        skipped = total - _bytes(todo)
        fd = os.open(archive, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            return _write_all(_Batch.split(todo), _Writer(bundle, fd), progress, skipped)
        finally:
            os.close(fd)


def _members_to_write(
    members: list[zipfile.ZipInfo], target: Path
) -> list[tuple[zipfile.ZipInfo, Path]]:
    """Each file member whose target is missing or of another size, folders made for them.

    Every name is checked before anything is written; of members sharing a name the last wins.
    """
    guard = _TraversalGuard(target)
    chosen: dict[Path, zipfile.ZipInfo] = {}
    for member in members:
        path = guard.target_of(member.filename)
        if member.is_dir():
            path.mkdir(parents=True, exist_ok=True)
        else:
            chosen.pop(path, None)
            chosen[path] = member
    present = _PresentFiles()
    todo = [(m, path) for path, m in chosen.items() if not present.has(path, m.file_size)]
    for folder in sorted({path.parent for _m, path in todo}):
        folder.mkdir(parents=True, exist_ok=True)
    return todo


def _bytes(todo: list[tuple[zipfile.ZipInfo, Path]]) -> int:
    return sum(member.file_size for member, _path in todo)


class _PresentFiles:
    """Which targets exist with a given size: one listing per folder, a ``stat`` per name found.

    A fresh extraction costs one listing per folder and no ``stat`` at all.
    """

    def __init__(self) -> None:
        self._names: dict[Path, frozenset[str]] = {}

    def has(self, path: Path, size: int) -> bool:
        names = self._names.get(path.parent)
        if names is None:
            names = self._names[path.parent] = _listing(path.parent)
        if path.name not in names:
            return False
        try:
            return path.stat().st_size == size
        except OSError:
            return False


def _listing(folder: Path) -> frozenset[str]:
    try:
        return frozenset(os.listdir(folder))
    except OSError:
        return frozenset()


@dataclass(frozen=True)
class _Batch:
    """Consecutive members written by one thread: few enough that a stop comes quickly."""

    members: list[tuple[zipfile.ZipInfo, Path]]

    @property
    def size(self) -> int:
        return _bytes(self.members)

    @classmethod
    def split(cls, todo: list[tuple[zipfile.ZipInfo, Path]]) -> list[_Batch]:
        batches: list[_Batch] = []
        start = budget = 0
        for index, (member, _path) in enumerate(todo):
            budget += member.compress_size + BATCH_MEMBER_COST
            if budget >= BATCH_BYTES or index + 1 == len(todo):
                batches.append(cls(todo[start : index + 1]))
                start, budget = index + 1, 0
        return batches


class _Writer:
    """Writes batches of one open archive; any thread may call it."""

    def __init__(self, bundle: zipfile.ZipFile, fd: int) -> None:
        self.bundle, self.fd = bundle, fd
        self.stop = threading.Event()
        self.failure: BaseException | None = None  # the first, set before ``stop``
        self._lock = threading.Lock()
        self.archive = Path(str(bundle.filename))

    def __call__(self, batch: _Batch) -> int:
        try:
            for member, path in batch.members:
                if self.stop.is_set():
                    raise Stopped(str(path))
                self._write(member, path)
        except Stopped:
            raise
        except BaseException as exc:
            with self._lock:
                self.failure = self.failure or exc
            self.stop.set()  # the other threads stop before their next member
            raise
        return len(batch.members)

    def _write(self, member: zipfile.ZipInfo, path: Path) -> None:
        try:
            write_member(self.bundle, self.fd, member, path, self.stop)
        except (DamagedMember, zipfile.BadZipFile, EOFError, zlib.error) as exc:
            raise ArchiveCorrupted(self.archive, f"{member.filename}: {exc}") from exc


def _write_all(batches: list[_Batch], writer: _Writer, progress: ByteProgress, done: int) -> int:
    """Run ``writer`` over ``batches`` on :data:`THREADS` threads (one batch: this thread)."""
    if len(batches) <= 1 or THREADS == 1:
        written = sum(writer(batch) for batch in batches)
        progress.finish(done + sum(batch.size for batch in batches))
        return written
    written = 0
    pool = ThreadPoolExecutor(THREADS, thread_name_prefix="mlebench-extract")
    try:
        futures = {pool.submit(writer, batch): batch for batch in batches}
        for future in as_completed(futures):
            written += future.result()
            done += futures[future].size
            progress.update(done)
    except Stopped:  # a thread saw another fail first: report that failure
        raise writer.failure or RuntimeError("extraction stopped") from None
    except BaseException:
        writer.stop.set()  # Ctrl-C here stops the threads too
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
    progress.finish(done)
    return written


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
