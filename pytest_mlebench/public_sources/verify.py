"""Is this file the one the record published? MD5 and size, then the zip's members and CRCs.

The MD5 and size come from the config (pinned) or from the record's metadata at download time;
either way a file that differs is refused. A copy with no checksum to compare (an offline copy
of a source whose checksum is not pinned) is still opened as a zip, must hold every member the
prepare step reads, and every member must pass its CRC-32; ``prepare.py`` then checks what the
members hold (columns, row counts).
"""

from __future__ import annotations

import hashlib
import zipfile
from dataclasses import dataclass
from pathlib import Path

from pytest_mlebench.public_sources.spec import PublicSource

CHUNK = 1 << 20


class SourceDamaged(Exception):
    """The file is not the published one, or not a sound zip; ``reason`` says how."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: {reason}")
        self.path = path
        self.reason = reason


@dataclass(frozen=True)
class Expected:
    """The checksum a file must have, and where it was read (for messages)."""

    md5: str
    size: int | None
    origin: str


def pinned(source: PublicSource) -> Expected | None:
    """The checksum written in the config, if any."""
    if source.md5 is None:
        return None
    return Expected(source.md5, source.size, "pinned in the competition's config.yaml")


def md5_file(path: Path) -> str:
    digest = hashlib.md5(usedforsecurity=False)
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def check_file(path: Path, source: PublicSource, expected: Expected | None) -> str:
    """Check ``path`` against ``expected`` (when known) and as a zip; returns its MD5.

    Raises:
        SourceDamaged: A different size or MD5, an unreadable zip, a missing member or a member
            that fails its CRC.
    """
    if expected is not None and expected.size is not None:
        size = path.stat().st_size
        if size != expected.size:
            raise SourceDamaged(
                path, f"{size} bytes, but {expected.size} are expected ({expected.origin})"
            )
    actual = md5_file(path)
    if expected is not None and actual != expected.md5:
        raise SourceDamaged(
            path, f"MD5 is {actual}, but {expected.md5} is expected ({expected.origin})"
        )
    check_members(path, source)
    return actual


def check_members(path: Path, source: PublicSource) -> None:
    """``path`` is a zip that holds every member of ``source``, each passing its CRC-32."""
    try:
        with zipfile.ZipFile(path) as bundle:
            names = set(bundle.namelist())
            missing = [member for member in source.members if member not in names]
            if missing:
                raise SourceDamaged(path, f"holds no {', '.join(missing)}")
            for member in source.members:
                with bundle.open(member) as handle:
                    while handle.read(CHUNK):  # the CRC-32 is checked at the member's end
                        pass
    except (zipfile.BadZipFile, OSError, EOFError) as exc:
        raise SourceDamaged(path, f"is not a readable zip ({exc})") from None
