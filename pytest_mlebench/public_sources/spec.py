"""The ``public_sources:`` key of a competition's ``config.yaml``: what, where, and its checksum.

Each entry names one file of a public record (``file``), the address it is downloaded from
(``url``), the record's machine-readable metadata that publishes its checksum (``record``, e.g.
Zenodo's ``https://zenodo.org/api/records/<id>``, whose ``files`` list gives ``checksum:
md5:…`` and ``size`` per file), optionally the MD5 and size pinned here (``md5``, ``size``;
then no metadata is read), the zip members ``prepare.py`` reads (``members``), and a few words
on what it is (``about``), for messages.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any

from pytest_mlebench.errors import ConfigError

KEYS = frozenset({"file", "url", "record", "md5", "size", "members", "about"})
MD5 = re.compile(r"^[0-9a-f]{32}$")


@dataclass(frozen=True)
class PublicSource:
    """One file of a public record that a competition's prepare step reads."""

    file: str
    url: str
    members: tuple[str, ...]
    about: str
    record: str | None = None
    md5: str | None = None
    size: int | None = None

    @property
    def pinned(self) -> bool:
        """Whether the checksum is written in the config (no metadata needs to be read)."""
        return self.md5 is not None


def parse_public_sources(section: Any, config_path: Path) -> tuple[PublicSource, ...]:
    """The entries of ``public_sources:``; :class:`ConfigError` naming the fix for a bad one."""
    if section is None:
        return ()
    if not isinstance(section, list):
        raise ConfigError(f"{config_path}: public_sources must be a list of mappings")
    return tuple(_one(entry, index, config_path) for index, entry in enumerate(section))


def _one(entry: Any, index: int, config_path: Path) -> PublicSource:
    where = f"{config_path}: public_sources[{index}]"
    if not isinstance(entry, Mapping):
        raise ConfigError(f"{where} must be a mapping with file, url and members")
    unknown = sorted(set(entry) - KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown key(s) {unknown}; allowed: {sorted(KEYS)}")
    missing = [key for key in ("file", "url", "members", "about") if not entry.get(key)]
    if missing:
        raise ConfigError(f"{where}: missing {', '.join(missing)}")
    md5, record = entry.get("md5"), entry.get("record")
    if md5 is None and record is None:
        raise ConfigError(f"{where}: give md5 (and size) or a record that publishes them")
    if md5 is not None and not MD5.match(str(md5)):
        raise ConfigError(f"{where}: md5 must be 32 lower-case hex digits")
    size = entry.get("size")
    if size is not None and (not isinstance(size, int) or isinstance(size, bool) or size <= 0):
        raise ConfigError(f"{where}: size must be a positive number of bytes")
    members = tuple(str(m) for m in entry["members"])
    for member in members:
        path = PurePosixPath(member)
        if path.is_absolute() or ".." in path.parts:
            raise ConfigError(f"{where}: member {member!r} must be a relative path inside the zip")
    return PublicSource(
        file=str(entry["file"]),
        url=str(entry["url"]),
        members=members,
        about=str(entry["about"]),
        record=str(record) if record is not None else None,
        md5=str(md5) if md5 is not None else None,
        size=size,
    )
