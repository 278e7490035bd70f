"""Download one public source: its checksum from the record's metadata, then the file itself.

Without a checksum pinned in the config, the record's machine-readable metadata is read first
(Zenodo's ``/api/records/<id>`` lists every file as ``{"key": …, "size": …, "checksum":
"md5:…"}``), so the file is verified against what its publisher states at the time of the
download. The file is written to ``<name>.part`` and renamed only once its size and MD5 match.
Network access goes through one callable (:data:`OpenUrl`), so tests can put a fake peer there.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import IO, Any

from pytest_mlebench.public_sources.spec import PublicSource
from pytest_mlebench.public_sources.verify import Expected, check_file, pinned

OpenUrl = Callable[[str], AbstractContextManager[IO[bytes]]]
TIMEOUT_SECONDS = 60
USER_AGENT = "pytest-mlebench (prepare)"


class SourceUnreachable(Exception):
    """The record or the file could not be read over the network (``str`` says why)."""


def open_url(url: str) -> AbstractContextManager[IO[bytes]]:
    """The standard library's HTTP client, with a timeout and a user agent."""
    import urllib.request  # here: every command that prepares or grades imports this module

    request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT})
    response: AbstractContextManager[IO[bytes]] = urllib.request.urlopen(
        request, timeout=TIMEOUT_SECONDS
    )
    return response


def published_checksum(source: PublicSource, opener: OpenUrl) -> Expected:
    """The MD5 and size of ``source.file``: pinned in the config, else from its record."""
    fixed = pinned(source)
    if fixed is not None:
        return fixed
    assert source.record is not None  # the config parser requires md5 or record
    try:
        with opener(source.record) as response:
            metadata = json.loads(response.read().decode("utf-8"))
    except (OSError, ValueError) as exc:
        raise SourceUnreachable(f"reading {source.record} failed ({_brief(exc)})") from None
    return _entry(metadata, source)


def _entry(metadata: Any, source: PublicSource) -> Expected:
    files = metadata.get("files") if isinstance(metadata, dict) else None
    for item in files if isinstance(files, list) else ():
        if isinstance(item, dict) and (item.get("key") or item.get("filename")) == source.file:
            checksum = str(item.get("checksum", ""))
            algorithm, _, value = checksum.partition(":")
            size = item.get("size")
            if algorithm == "md5" and len(value) == 32:
                size = size if isinstance(size, int) else None
                return Expected(value.lower(), size, f"published in {source.record}")
            raise SourceUnreachable(f"{source.record} gives no MD5 for {source.file}")
    raise SourceUnreachable(f"{source.record} lists no file {source.file}")


def download(source: PublicSource, target: Path, opener: OpenUrl = open_url) -> str:
    """Fetch ``source`` into ``target``, verified; returns its MD5.

    Raises:
        SourceUnreachable: The record or the file could not be read.
        SourceDamaged: The bytes that arrived are not the published file.
    """
    expected = published_checksum(source, opener)
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(target.name + ".part")
    try:
        with opener(source.url) as response, partial.open("wb") as handle:
            shutil.copyfileobj(response, handle, 1 << 20)
    except OSError as exc:
        partial.unlink(missing_ok=True)
        raise SourceUnreachable(f"downloading {source.url} failed ({_brief(exc)})") from None
    try:
        digest = check_file(partial, source, expected)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    partial.replace(target)
    return digest


def _brief(error: BaseException) -> str:
    text = str(error).strip().splitlines()
    return f"{type(error).__name__}: {text[0]}" if text else type(error).__name__
