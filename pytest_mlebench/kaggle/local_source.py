"""``mlebench prepare --from PATH``: raw files from a zip or a folder, with no network at all.

PATH is, for one competition, Kaggle's ``<id>.zip``, a folder of raw files already extracted
(a mirror), or a folder that holds ``<id>.zip`` or ``<id>/`` — the last form also serves a batch
(``--lite``, ``--split``, several ``-c``). A zip is extracted in place of a download (streamed,
resumable); a folder's files are hard-linked into ``raw/`` where the file system allows (else
copied, streamed), and any zip among them is unpacked. No API object is ever created. A second
public source (``public_sources:``) is looked for beside the zip, in the folder or in PATH, and
never downloaded (:mod:`pytest_mlebench.public_sources.fill`).

``raw/.source`` records which PATH (and its size and modification time) filled ``raw/``: the
same PATH again is a no-op once complete, a different one replaces ``raw/``.
"""

from __future__ import annotations

import os
from pathlib import Path

from pytest_mlebench.definition import Competition
from pytest_mlebench.errors import DataNotPrepared
from pytest_mlebench.kaggle.archives import (
    COMPLETE_MARKER,
    extract_nested,
    extract_zip,
    raw_is_complete,
)
from pytest_mlebench.kaggle.download import SOURCE_MARKER, start_raw
from pytest_mlebench.placing import place_file
from pytest_mlebench.public_sources.fill import fill_public_sources

SKIPPED_NAMES = frozenset({COMPLETE_MARKER, SOURCE_MARKER, ".extracted"})


def source_for(source: Path, competition_id: str) -> Path:
    """The zip or folder under ``source`` that holds ``competition_id``'s raw files."""
    for candidate in (source / f"{competition_id}.zip", source / competition_id):
        if candidate.exists():
            return candidate
    return source


class LocalSource:
    """Fills ``raw/`` from ``path``; called by ``prepare`` as ``(competition, raw)``."""

    def __init__(self, path: Path, *, batch: bool = False) -> None:
        self.path = path
        self.batch = batch

    def __call__(self, competition: Competition, raw: Path) -> None:
        source = self.locate(competition.id)
        _refuse_overlap(source, raw, competition.id)
        token = _identity(source)
        if not (raw_is_complete(raw) and _recorded(raw) == token):
            (raw / COMPLETE_MARKER).unlink(missing_ok=True)
            start_raw(raw, token)
            if source.is_file():
                extract_zip(source, raw)
            else:
                _link_tree(source, raw)
            extract_nested(raw)
            (raw / COMPLETE_MARKER).write_text("ok\n")
        fill_public_sources(
            competition.id, competition.public_sources, raw, local=self.roots(source)
        )

    def roots(self, source: Path) -> list[Path]:
        """Where a second public source may lie: beside Kaggle's zip, in its folder, in PATH."""
        found = [source.parent if source.is_file() else source]
        if self.path.is_dir() and self.path not in found:
            found.append(self.path)
        return found

    def locate(self, competition_id: str) -> Path:
        """The zip or folder to use; :class:`DataNotPrepared` naming what was looked for."""
        command = f"mlebench prepare -c {competition_id} --from PATH"
        if not self.path.exists():
            raise DataNotPrepared(f"{competition_id}: --from {self.path} does not exist", command)
        found = source_for(self.path, competition_id) if self.path.is_dir() else self.path
        if self.batch and found == self.path:
            raise DataNotPrepared(
                f"{competition_id}: neither {self.path / (competition_id + '.zip')} "
                f"nor {self.path / competition_id}/ exists",
                command,
            )
        if found.is_file() and found.suffix.lower() != ".zip":
            raise DataNotPrepared(f"{competition_id}: --from {found} is not a zip", command)
        return found


def _refuse_overlap(source: Path, raw: Path, competition_id: str) -> None:
    # raw/ is emptied before it is filled: it must never be (inside) the source itself.
    origin, target = source.resolve(), raw.resolve()
    if origin == target or origin.is_relative_to(target) or target.is_relative_to(origin):
        raise DataNotPrepared(
            f"{competition_id}: --from {source} overlaps the data folder {raw}; "
            "pass a folder outside the data dir",
            f"mlebench prepare -c {competition_id} --from PATH",
        )


def _identity(source: Path) -> str:
    status = source.stat()
    return f"from:{source.resolve()}:{status.st_size}:{status.st_mtime_ns}"


def _recorded(raw: Path) -> str:
    marker = raw / SOURCE_MARKER
    return marker.read_text("utf-8").strip() if marker.is_file() else ""


def _link_tree(source: Path, raw: Path) -> None:
    """Hard-link (or copy) every file under ``source`` into ``raw``; present ones are kept."""
    for folder, _dirs, files in os.walk(source):
        for name in files:
            origin = Path(folder) / name
            relative = origin.relative_to(source)
            if relative.parts[0] in SKIPPED_NAMES:
                continue
            target = raw / relative
            if target.is_file() and target.stat().st_size == origin.stat().st_size:
                continue
            target.unlink(missing_ok=True)
            place_file(origin, target)
