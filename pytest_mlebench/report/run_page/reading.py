"""Reading the run folder's files with a byte bound: everything in it came from the sandbox.

A transcript or log may be huge or torn; the page reads at most :data:`MAX_FILE_BYTES` of any
file and each text it shows is cut to :data:`MAX_PART_CHARS` (head and tail kept, the cut said).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MAX_FILE_BYTES = 256 * 1024 * 1024
MAX_PART_CHARS = 20_000


def bounded_text(path: Path, limit: int = MAX_FILE_BYTES) -> str | None:
    """The file's text (its first ``limit`` bytes, undecodable bytes replaced); ``None`` when
    it is absent or unreadable."""
    try:
        with path.open("rb") as handle:
            raw = handle.read(limit + 1)
    except OSError:
        return None
    text = raw[:limit].decode("utf-8", errors="replace")
    if len(raw) > limit:
        text += f"\n[mlebench: {path.name} is over {limit} bytes; the rest is not shown]"
    return text


def bounded_lines(path: Path, limit: int = MAX_FILE_BYTES) -> Iterator[str]:
    """The file's lines, up to ``limit`` bytes in all (none when it is absent)."""
    try:
        handle = path.open("rb")
    except OSError:
        return
    read = 0
    with handle:
        for raw in handle:
            read += len(raw)
            if read > limit:
                return
            yield raw.decode("utf-8", errors="replace").rstrip("\r\n")


def json_file(path: Path) -> Any:
    """The JSON value of a file (bounded), ``None`` when absent or not JSON."""
    text = bounded_text(path)
    if text is None:
        return None
    try:
        return json.loads(text)
    except ValueError:
        return None


def cut(text: str, limit: int = MAX_PART_CHARS) -> str:
    """``text`` with its middle cut out when it is over ``limit`` characters, saying so."""
    if len(text) <= limit:
        return text
    half = limit // 2
    return f"{text[:half]}\n[… {len(text) - 2 * half} characters cut …]\n{text[-half:]}"
