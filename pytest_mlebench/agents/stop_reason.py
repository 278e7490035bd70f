"""Why an agent stopped, in its own words: one line it writes to ``LOGS_DIR/stop_reason.txt``.

The harness knows how the agent's process ended (exit code, timeout) but not why the agent's loop
did: "three answers without a usable command", "step limit", "no working solution". An agent says
so by writing one line to ``/home/logs/stop_reason.txt`` (``$LOGS_DIR/stop_reason.txt``); the
built-in AIDE and mini-swe-agent folders map their libraries' exit statuses to such a line. The
file comes back with the run's logs and is read here for the record's ``stop_reason``.

The file is written inside the sandbox, so it is hostile input: it is read only when it is a
regular file (not a link), at most :data:`MAX_BYTES` bytes of it, its first line kept, decoded
leniently, stripped of control characters and cut to :data:`MAX_CHARS` characters.
"""

from __future__ import annotations

import os
import stat
import unicodedata
from pathlib import Path

STOP_REASON_FILE = "stop_reason.txt"
MAX_BYTES = 4096
MAX_CHARS = 300


def read_stop_reason(logs_dir: Path) -> str | None:
    """The line the agent left in ``logs_dir/stop_reason.txt``; ``None`` when it left none."""
    path = logs_dir / STOP_REASON_FILE
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    with os.fdopen(descriptor, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            return None
        raw = handle.read(MAX_BYTES)
    return stop_reason_text(raw)


def stop_reason_text(raw: bytes) -> str | None:
    """The first non-empty line of ``raw``, printable characters only, at most
    :data:`MAX_CHARS` long (with ``…`` when cut); ``None`` when nothing is left."""
    text = raw.decode("utf-8", errors="replace")
    for line in text.splitlines():
        kept = "".join(c for c in line if not unicodedata.category(c).startswith("C")).strip()
        if kept:
            return kept if len(kept) <= MAX_CHARS else kept[: MAX_CHARS - 1] + "…"
    return None
