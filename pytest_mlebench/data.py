"""Prepare a competition's data once: cache layout, checksums, and a lock shared by xdist workers.

Layout under the data dir::

    <data_dir>/<id>/raw/                      downloaded source files (Kaggle competitions)
    <data_dir>/<id>/sources/                  second public sources, verified (public_sources:)
    <data_dir>/<id>/prepared/public/          what the agent sees (+ description.md)
    <data_dir>/<id>/prepared/private/         the answers; never mounted into a sandbox
    <data_dir>/<id>/prepared/manifest.json    SHA-256 and size of every prepared file

``prepare`` writes into a temporary sibling folder and renames it into place only when the
manifest is complete, so a crash never leaves half-written data that looks prepared. A later call
compares the files with the manifest and prepares again on any difference, or when the
competition's ``config.yaml``/``prepare.py``/``description.md`` changed (the *fingerprint*).

The comparison is cheap by default: a file whose size and modification time (``mtime_ns``) match
its manifest entry is taken as unchanged, so a session start does not re-read 220,000 images.
Only a file whose size or time changed, an entry from an older manifest without times, or
``verify=True`` (``mlebench prepare --verify``) costs a SHA-256 pass over the file.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import stat
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from filelock import FileLock

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.definition import Competition, load_prepare
from pytest_mlebench.digests import sha256_file
from pytest_mlebench.errors import DataNotPrepared, PrepareError
from pytest_mlebench.public_sources.fill import fill_public_sources
from pytest_mlebench.sources import missing_sources, missing_sources_message, source_available
from pytest_mlebench.timestamps import utc_timestamp

# 2 adds "mtime_ns" (path -> modification time) beside "files"; version 1 manifests, without
# it, are still accepted (their files are hashed once, then the times are added).
MANIFEST_VERSION = 2
LOCK_TIMEOUT_SECONDS = 6 * 3600
Progress = Callable[[str], None]
# Fills a Kaggle competition's raw/ folder (a download, or a local copy with --from).
RawFetcher = Callable[[Competition, Path], None]


@dataclass(frozen=True)
class PreparedData:
    """Where a prepared competition's files are."""

    competition_id: str
    public: Path
    private: Path
    manifest: Path

    @property
    def answers(self) -> Path:
        return self.private / "answers.csv"


def prepare_command(competition: Competition, data_dir: Path) -> str:
    """The exact shell command that prepares ``competition`` into ``data_dir``."""
    return f"mlebench prepare -c {competition.id} --data-dir {data_dir}"


def prepared_paths(competition: Competition, data_dir: Path) -> PreparedData:
    base = data_dir / competition.id / "prepared"
    return PreparedData(
        competition_id=competition.id,
        public=base / "public",
        private=base / "private",
        manifest=base / "manifest.json",
    )


def prepare_competition(
    competition: Competition,
    data_dir: Path,
    *,
    force: bool = False,
    allow_download: bool = False,
    progress: Progress | None = None,
    fetch_raw: RawFetcher | None = None,
    verify: bool = False,
) -> PreparedData:
    """Make sure ``competition`` is prepared under ``data_dir``; prepare it at most once.

    Safe to call from many processes at once (pytest-xdist workers): a file lock serialises them
    and only the first one does the work. Raises :class:`DataNotPrepared` (with the command that
    fixes it) when the data is missing and cannot be made offline.

    Args:
        fetch_raw: With ``allow_download``, what fills ``raw/`` of a Kaggle competition (a batch's
            downloader, or a ``--from`` copy); it skips what is complete. Default: download it.
        verify: Re-hash every prepared file instead of trusting sizes and times.
    """
    say = progress or (lambda _message: None)
    paths = prepared_paths(competition, data_dir)
    folder = data_dir / competition.id
    folder.mkdir(parents=True, exist_ok=True)
    with FileLock(str(folder / ".prepare.lock"), timeout=LOCK_TIMEOUT_SECONDS):
        if not force:
            problem, rehashed = _compare(competition, paths, verify)
            if problem is None:
                if rehashed is not None:
                    _record_times(paths, rehashed)
                return paths
            if paths.manifest.parent.exists():
                say(f"{competition.id}: preparing again ({problem})")
        raw = _raw_folder(competition, folder, allow_download, data_dir, fetch_raw)
        _check_requirements(competition, data_dir)
        say(f"{competition.id}: preparing")
        started = time.monotonic()
        _build(competition, raw, paths)
        say(f"{competition.id}: prepared in {time.monotonic() - started:.1f} s")
    return paths


def check_prepared(
    competition: Competition, paths: PreparedData, *, verify: bool = False
) -> str | None:
    """``None`` when the prepared data matches its manifest; else why it must be prepared.

    Args:
        verify: Re-hash every file; by default only files whose size or modification time
            differ from the manifest (or that it records without a time) are hashed.
    """
    return _compare(competition, paths, verify)[0]


def _compare(
    competition: Competition, paths: PreparedData, verify: bool
) -> tuple[str | None, dict[str, Any] | None]:
    """Why the data must be prepared (or ``None``), and the manifest when files had to be hashed
    (no recorded time, or a different one) so that their times can be recorded."""
    if not paths.manifest.is_file():
        return "not prepared yet", None
    try:
        manifest = json.loads(paths.manifest.read_text("utf-8"))
        recorded: dict[str, dict[str, Any]] = manifest["files"]
        fingerprint = manifest["fingerprint"]
    except (OSError, ValueError, KeyError, TypeError):
        return "manifest is unreadable", None
    if fingerprint != competition_fingerprint(competition):
        return "the competition's definition changed", None
    actual = _stat_files_under(paths.manifest.parent)
    if actual.keys() != recorded.keys():
        return "prepared files were added or removed", None
    times = manifest.get("mtime_ns")
    times = times if isinstance(times, dict) else {}
    hashed = False
    for rel, entry in recorded.items():
        path, status = actual[rel]
        if status.st_size != entry["size"]:
            return f"{rel} does not match its checksum", None
        if not verify and times.get(rel) == status.st_mtime_ns:
            continue
        if sha256_file(Path(path)) != entry["sha256"]:
            return f"{rel} does not match its checksum", None
        hashed = True
    return None, manifest if hashed else None


def _record_times(paths: PreparedData, manifest: dict[str, Any]) -> None:
    """Record the modification times of files that were hashed and found intact (a manifest of
    an older version has none; a touched file has a new one), so the next check is cheap."""
    base = paths.manifest.parent
    manifest["mtime_ns"] = _times(base, manifest["files"])
    try:
        write_atomically(paths.manifest, json.dumps(manifest, indent=1, sort_keys=True))
    except OSError:
        pass  # a read-only shared data dir: the files stay valid, later checks just hash again


def _times(base: Path, files: dict[str, Any]) -> dict[str, int]:
    return {rel: (base / rel).stat().st_mtime_ns for rel in files}


def competition_fingerprint(competition: Competition) -> str:
    digest = hashlib.sha256()
    for path in (
        competition.folder / "config.yaml",
        competition.prepare_path,
        competition.description_path,
    ):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _files_under(base: Path) -> dict[str, Path]:
    """Prepared files by path relative to ``base``, without the manifest itself."""
    return {rel: Path(path) for rel, (path, _) in sorted(_stat_files_under(base).items())}


def _stat_files_under(base: Path) -> dict[str, tuple[str, os.stat_result]]:
    """Prepared files (regular files, or links to one; linked folders are not entered) by path
    relative to ``base``, with their ``stat``, without the manifest itself. One ``stat`` per
    file from the folder listing: a check before every session of a competition with 70,000
    images must not cost seconds."""
    found: dict[str, tuple[str, os.stat_result]] = {}
    prefix = len(str(base)) + 1
    pending = [str(base)]
    while pending:
        with os.scandir(pending.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    pending.append(entry.path)
                    continue
                try:
                    status = entry.stat()
                except OSError:  # a dangling link is no prepared file
                    continue
                if stat.S_ISREG(status.st_mode) and entry.name != "manifest.json":
                    rel = entry.path[prefix:].replace(os.sep, "/")
                    found[rel] = (entry.path, status)  # a Path per file costs more than its stat
    return found


def _raw_folder(
    competition: Competition,
    folder: Path,
    allow_download: bool,
    data_dir: Path,
    fetch_raw: RawFetcher | None,
) -> Path:
    raw = folder / "raw"
    if competition.source == "embedded":
        raw.mkdir(exist_ok=True)
        return raw
    from pytest_mlebench import kaggle

    if allow_download and fetch_raw is not None:
        fetch_raw(competition, raw)  # it knows best whether raw/ is complete for its source
        return raw
    if kaggle.raw_is_complete(raw):
        # Its second public sources too, from a verified earlier copy (no download here).
        fill_public_sources(competition.id, competition.public_sources, raw)
        return raw
    if not allow_download:
        raise DataNotPrepared(
            f"{competition.id}: Kaggle data is not downloaded",
            prepare_command(competition, data_dir),
        )
    kaggle.download_competition(competition, raw)
    return raw


def _check_requirements(competition: Competition, data_dir: Path) -> None:
    missing = missing_sources(competition.requires)
    if missing:
        raise DataNotPrepared(
            f"{competition.id}: {missing_sources_message(missing)}",
            prepare_command(competition, data_dir),
        )


def requirement_available(requirement: str) -> bool:
    """Whether one ``requires`` entry is available here (:func:`sources.source_available`)."""
    return source_available(requirement)


def _build(competition: Competition, raw: Path, paths: PreparedData) -> None:
    final = paths.manifest.parent
    staging = final.with_name(f"prepared.tmp-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    public, private = staging / "public", staging / "private"
    public.mkdir(parents=True)
    private.mkdir()
    try:
        _run_prepare(competition, raw, public, private)
        shutil.copy2(competition.description_path, public / "description.md")
        _check_output(competition, public, private)
        _write_manifest(competition, staging)
        private.chmod(0o700)
        shutil.rmtree(final, ignore_errors=True)
        staging.rename(final)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _run_prepare(competition: Competition, raw: Path, public: Path, private: Path) -> None:
    prepare = load_prepare(competition)
    try:
        prepare(raw, public, private)
    except Exception as exc:
        raise PrepareError(f"{competition.id}: prepare() failed: {exc}") from exc


def _check_output(competition: Competition, public: Path, private: Path) -> None:
    for required in (public / "sample_submission.csv", private / "answers.csv"):
        if not required.is_file():
            raise PrepareError(
                f"{competition.id}: prepare() did not write {required.relative_to(public.parent)}"
            )


def _write_manifest(competition: Competition, staging: Path) -> None:
    files = {
        rel: {"sha256": sha256_file(path), "size": path.stat().st_size}
        for rel, path in _files_under(staging).items()
    }
    manifest = {
        "version": MANIFEST_VERSION,
        "competition": competition.id,
        "fingerprint": competition_fingerprint(competition),
        "prepared_at": utc_timestamp(),
        "files": files,
        "mtime_ns": _times(staging, files),
    }
    (staging / "manifest.json").write_text(json.dumps(manifest, indent=1, sort_keys=True), "utf-8")
