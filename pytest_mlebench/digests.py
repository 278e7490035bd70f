"""The SHA-256 of a file, read in 1 MiB pieces (prepared data, archives, wheels, submissions)."""

from __future__ import annotations

import hashlib
from pathlib import Path

CHUNK = 1 << 20


def sha256_file(path: Path) -> str:
    """Hex SHA-256 of ``path``'s bytes; memory stays at one piece whatever the file's size."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while chunk := handle.read(CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
