"""Put a competition's second public sources into ``raw/``, verified, from wherever they are.

Where a file comes from, in order: a copy verified before (``<data>/<id>/sources/<file>`` with
its MD5 beside it, kept when ``raw/`` is filled again); with ``--from PATH`` (no network at all)
the file in PATH, beside Kaggle's zip or in its folder, or its extracted members there; the
members already in ``raw/``, placed there with Kaggle's files from such a folder; else, when
downloads are allowed, the network (:mod:`.fetch`, checked against the published MD5). An
extracted copy has no checksum to compare: ``prepare.py`` checks its content.
The members ``prepare.py`` reads are then unpacked into ``raw/<member>``, and
``raw/.public-sources.json`` records which file they came from, so a later run finds them in
place. Every failure is a :class:`DataNotPrepared` that names the address and the fix.
"""

from __future__ import annotations

import json
import shutil
import zipfile
from collections.abc import Callable, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.errors import DataNotPrepared
from pytest_mlebench.public_sources import fetch
from pytest_mlebench.public_sources.fetch import OpenUrl, SourceUnreachable, download
from pytest_mlebench.public_sources.spec import PublicSource
from pytest_mlebench.public_sources.verify import (
    Expected,
    SourceDamaged,
    check_file,
    pinned,
)

RECORD_NAME = ".public-sources.json"
CACHE_FOLDER = "sources"
Say = Callable[[str], None]


def _quiet(_line: str) -> None:
    return None


def fill_public_sources(
    competition_id: str,
    sources: Sequence[PublicSource],
    raw: Path,
    *,
    local: Sequence[Path] = (),
    download_allowed: bool = False,
    opener: OpenUrl | None = None,
    say: Say = _quiet,
) -> None:
    """Make sure every member of ``sources`` is in ``raw``; see the module docstring.

    Args:
        local: The ``--from`` folders to look in (then nothing is downloaded).
        download_allowed: Whether the network may be used when no verified copy is at hand.
        opener: Opens an address (default: :func:`.fetch.open_url`, looked up at call time).
    """
    if not sources:
        return
    opener = opener or fetch.open_url
    record = _read_record(raw)
    for source in sources:
        if source.file in record and all((raw / m).is_file() for m in source.members):
            continue
        record[source.file] = _obtain(
            competition_id, source, raw, local, download_allowed, opener, say
        )
        write_atomically(raw / RECORD_NAME, json.dumps(record, indent=1, sort_keys=True))


def _obtain(
    cid: str,
    source: PublicSource,
    raw: Path,
    local: Sequence[Path],
    download_allowed: bool,
    opener: OpenUrl,
    say: Say,
) -> dict[str, str]:
    cached = raw.parent / CACHE_FOLDER / source.file
    verified = _cached_digest(cached, source)
    if verified is not None:
        _unpack(cached, source, raw)
        return {"from": str(cached), "md5": verified, "checked": "md5"}
    found = _from_local(cid, source, raw, local) if local else None
    if found is not None:
        return found
    if all((raw / member).is_file() for member in source.members):
        # Placed with Kaggle's files (a --from folder that held them): taken as an extracted
        # copy, whose content prepare.py checks.
        return {"from": str(raw), "md5": "", "checked": "content, by prepare.py"}
    if local:
        raise _not_in_local(cid, source, local)
    if not download_allowed:
        raise DataNotPrepared(
            f"{cid}: {source.file} ({source.about}) is not fetched yet",
            f"mlebench prepare -c {cid}",
        )
    say(f"  {cid}: downloading {source.file} ({source.about}) from {source.url}")
    try:
        digest = download(source, cached, opener)
    except SourceUnreachable as exc:
        raise DataNotPrepared(
            f"{cid}: {source.file} ({source.about}) could not be fetched: {exc}; on a machine "
            f"without network, download it from {source.url} elsewhere and pass the folder "
            "that holds it and Kaggle's files with --from PATH",
            f"mlebench prepare -c {cid} --from PATH",
        ) from None
    except SourceDamaged as exc:
        raise DataNotPrepared(
            f"{cid}: the download of {source.file} is not the published file ({exc.reason}); "
            f"run the command again, or download it from {source.url} and pass the folder "
            "that holds it with --from PATH",
            f"mlebench prepare -c {cid}",
        ) from None
    cached.with_name(cached.name + ".md5").write_text(digest + "\n", "utf-8")
    say(f"  {cid}: {source.file} matches its published MD5 {digest}")
    _unpack(cached, source, raw)
    return {"from": source.url, "md5": digest, "checked": "md5"}


def _cached_digest(cached: Path, source: PublicSource) -> str | None:
    """The MD5 of a copy downloaded and verified before, if it still has the recorded one."""
    recorded = cached.with_name(cached.name + ".md5")
    if not cached.is_file() or not recorded.is_file():
        return None
    expected = Expected(recorded.read_text("utf-8").strip(), None, "recorded at its download")
    try:
        return check_file(cached, source, expected)
    except SourceDamaged:
        return None


def _from_local(
    cid: str, source: PublicSource, raw: Path, roots: Sequence[Path]
) -> dict[str, str] | None:
    """The file, or its extracted members, from the ``--from`` folders (``None``: in none)."""
    command = f"mlebench prepare -c {cid} --from {roots[0]}"
    for root in roots:
        archive = root / source.file
        if archive.is_file():
            try:
                digest = check_file(archive, source, pinned(source))
            except SourceDamaged as exc:
                raise DataNotPrepared(
                    f"{cid}: {archive} is not {source.file} as published: {exc.reason}; "
                    f"replace it with a fresh download from {source.url}",
                    command,
                ) from None
            _unpack(archive, source, raw)
            checked = "md5" if source.pinned else "zip members and CRCs (no MD5 pinned)"
            return {"from": str(archive), "md5": digest, "checked": checked}
    for root in roots:
        found = [_extracted(root, member) for member in source.members]
        if all(path is not None for path in found):
            for member, path in zip(source.members, found, strict=True):
                assert path is not None
                _copy(path, raw / member)
            return {"from": str(root), "md5": "", "checked": "content, by prepare.py"}
    return None


def _not_in_local(cid: str, source: PublicSource, roots: Sequence[Path]) -> DataNotPrepared:
    where = ", ".join(str(root) for root in roots)
    members = ", ".join(PurePosixPath(m).name for m in source.members)
    return DataNotPrepared(
        f"{cid}: {source.file} ({source.about}) is not in {where}; download it from "
        f"{source.url} and put it there beside Kaggle's files (or its extracted {members})",
        f"mlebench prepare -c {cid} --from {roots[0]}",
    )


def _extracted(root: Path, member: str) -> Path | None:
    for candidate in (root / member, root / PurePosixPath(member).name):
        if candidate.is_file():
            return candidate
    return None


def _unpack(archive: Path, source: PublicSource, raw: Path) -> None:
    with zipfile.ZipFile(archive) as bundle:
        for member in source.members:
            target = raw / member
            target.parent.mkdir(parents=True, exist_ok=True)
            partial = target.with_name(target.name + ".part")
            with bundle.open(member) as origin, partial.open("wb") as handle:
                shutil.copyfileobj(origin, handle, 1 << 20)
            partial.replace(target)


def _copy(origin: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    shutil.copyfile(origin, partial)
    partial.replace(target)


def _read_record(raw: Path) -> dict[str, Any]:
    try:
        record = json.loads((raw / RECORD_NAME).read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return record if isinstance(record, dict) else {}
