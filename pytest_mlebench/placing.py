"""Put a raw file into a prepared folder without copying its bytes where the file system allows.

Image and audio competitions have tens of thousands of files (histopathologic-cancer-detection:
220,025 TIFFs). Their prepare scripts place each extracted raw file under ``public/`` or
``private/`` with :func:`place_file`: a hard link when source and target share a file system (no
bytes copied, and the raw copy stays intact for a later prepare), else a streamed copy. Nothing is
read into memory whole.
"""

from __future__ import annotations

import errno
import os
import shutil
from collections.abc import Iterable
from pathlib import Path

from pytest_mlebench.errors import PrepareError

# Errors that mean "no hard link here" rather than "something is broken".
NO_LINK = {errno.EXDEV, errno.EPERM, errno.EMLINK, errno.ENOTSUP, errno.EACCES}


def place_file(source: Path, target: Path) -> None:
    """Make ``target`` a file with the content of ``source``: a hard link, or a copy.

    The common case costs one ``link`` call: the checks run only when it fails.

    Raises:
        PrepareError: ``source`` does not exist, or ``target`` exists already.
    """
    try:
        _link_or_copy(source, target)
    except FileNotFoundError:
        if not source.is_file():
            raise PrepareError(_missing(source)) from None
        target.parent.mkdir(parents=True, exist_ok=True)
        _link_or_copy(source, target)


def _link_or_copy(source: Path, target: Path) -> None:
    try:
        os.link(source, target)
        return
    except FileExistsError:
        raise PrepareError(f"{target}: already exists; two rows would share one file") from None
    except OSError as exc:
        if exc.errno not in NO_LINK:
            raise
    if not source.is_file():  # a folder cannot be linked either
        raise PrepareError(_missing(source))
    shutil.copyfile(source, target)


def _missing(source: Path) -> str:
    return f"{source}: expected a raw file; is the download complete?"


def place_files(pairs: Iterable[tuple[Path, Path]]) -> int:
    """:func:`place_file` for every (source, target) pair; returns how many were placed."""
    count = 0
    for source, target in pairs:
        place_file(source, target)
        count += 1
    return count
