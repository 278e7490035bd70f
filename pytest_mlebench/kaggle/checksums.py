"""A small manifest beside a download: size and SHA-256 of each archive once it checked out.

Kaggle publishes no checksum, so the first one is ours: an archive is recorded only after its zip
directory could be read, and every member's CRC-32 is checked while it is extracted. A later run
that finds the archive again (an extraction was interrupted) compares it with the record; a
different size or digest means it was damaged or replaced, and it is downloaded again.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path
from typing import Literal

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.digests import sha256_file
from pytest_mlebench.kaggle.archives import ArchiveCorrupted
from pytest_mlebench.timestamps import utc_timestamp

MANIFEST_NAME = "manifest.json"
ArchiveState = Literal["missing", "unrecorded", "verified", "changed"]


class ArchiveManifest:
    """The records of one ``download/`` folder."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / MANIFEST_NAME
        self._records = self._load()

    def _load(self) -> dict[str, dict[str, object]]:
        try:
            records = json.loads(self.path.read_text("utf-8"))["archives"]
        except (OSError, ValueError, KeyError, TypeError):
            return {}
        return records if isinstance(records, dict) else {}

    def state(self, archive: Path) -> ArchiveState:
        """Whether ``archive`` is absent, not yet recorded, as recorded, or changed since."""
        if not archive.is_file():
            return "missing"
        record = self._records.get(archive.name)
        if record is None:
            return "unrecorded"
        if archive.stat().st_size != record.get("size"):
            return "changed"
        return "verified" if sha256_file(archive) == record.get("sha256") else "changed"

    def sha256(self, archive: Path) -> str | None:
        value = self._records.get(archive.name, {}).get("sha256")
        return value if isinstance(value, str) else None

    def record(self, archive: Path) -> str:
        """Record ``archive``'s size and digest; returns the digest."""
        digest = sha256_file(archive)
        self._records[archive.name] = {
            "size": archive.stat().st_size,
            "sha256": digest,
            "recorded_at": utc_timestamp(),
        }
        self._save()
        return digest

    def forget(self, archive: Path) -> None:
        self._records.pop(archive.name, None)
        self._save()

    def _save(self) -> None:
        text = json.dumps({"archives": self._records}, indent=1, sort_keys=True)
        write_atomically(self.path, text)


def check_zip_structure(archive: Path) -> int:
    """Open ``archive``'s directory (a truncated or non-zip file fails); returns member count."""
    try:
        with zipfile.ZipFile(archive) as bundle:
            return len(bundle.infolist())
    except (zipfile.BadZipFile, OSError) as exc:
        raise ArchiveCorrupted(archive, str(exc)) from exc
