"""Reading the run folder's files with a byte bound: everything in it came from the sandbox.

A transcript or log may be huge or torn; the page reads at most :data:`MAX_FILE_BYTES` of any
file (:data:`MAX_JSON_BYTES` of a JSON document the agent wrote, which is parsed whole), at most
:data:`MAX_LINE_BYTES` of any line, and each text it shows is cut to :data:`MAX_PART_CHARS` (head
and tail kept, the cut said).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MAX_FILE_BYTES = 256 * 1024 * 1024
MAX_JSON_BYTES = 64 * 1024 * 1024
MAX_LINE_BYTES = 8 * 1024 * 1024
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
    """The file's lines, up to ``limit`` bytes in all (none when it is absent); a line over
    :data:`MAX_LINE_BYTES` is cut there (its rest skipped)."""
    try:
        handle = path.open("rb")
    except OSError:
        return
    read = 0
    with handle:
        while raw := handle.readline(MAX_LINE_BYTES):
            read += len(raw)
            while not raw.endswith(b"\n") and len(raw) == MAX_LINE_BYTES:
                rest = handle.readline(MAX_LINE_BYTES)  # the cut line's rest, skipped
                read += len(rest)
                if not rest or rest.endswith(b"\n"):
                    break
            if read > limit:
                return
            yield raw.decode("utf-8", errors="replace").rstrip("\r\n")


def json_file(path: Path) -> Any:
    """The JSON value of a file of at most :data:`MAX_JSON_BYTES`; ``None`` when it is absent,
    larger or not JSON."""
    text = bounded_text(path, MAX_JSON_BYTES)
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
