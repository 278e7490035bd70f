"""The run's transcript of LLM calls: one JSON line per call in ``<run dir>/gateway.jsonl``.

Each line holds the request body, the answer (a JSON body, or the raw event stream of a streamed
answer), the usage, the cost, the latency and the status. Keys never reach the file: fields named
like credentials are replaced, and every secret the gateway knows (provider keys, the run token) is
cut out of the serialised line before it is written. Bodies over :data:`MAX_BODY_CHARS` are
shortened with a note.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

REDACTED = "[redacted]"
CREDENTIAL_FIELDS = frozenset({"api_key", "apikey", "api-key", "authorization", "x-api-key"})
MAX_BODY_CHARS = 1_000_000


class Transcript:
    """Appends call entries to ``path`` (thread-safe), with ``secrets`` cut out."""

    def __init__(self, path: Path, secrets: Iterable[str]) -> None:
        self.path = path
        self.secrets = sorted({s for s in secrets if s}, key=len, reverse=True)
        self._lock = threading.Lock()

    def write(self, entry: dict[str, Any]) -> None:
        line = json.dumps(redact_fields(entry), sort_keys=True, default=str)
        for secret in self.secrets:
            line = line.replace(secret, REDACTED)
        with self._lock:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self.path.open("a", encoding="utf-8") as handle:
                handle.write(line + "\n")


def redact_fields(value: Any) -> Any:
    """``value`` with every field named like a credential replaced by ``[redacted]``."""
    if isinstance(value, dict):
        return {
            key: REDACTED if str(key).lower() in CREDENTIAL_FIELDS else redact_fields(item)
            for key, item in value.items()
        }
    if isinstance(value, list):
        return [redact_fields(item) for item in value]
    return value


def body_for_log(raw: bytes) -> Any:
    """A body as the transcript keeps it: parsed JSON when it is JSON, else (shortened) text."""
    text = raw.decode("utf-8", errors="replace")
    if len(text) > MAX_BODY_CHARS:
        return text[:MAX_BODY_CHARS] + f"\n[mlebench: {len(text) - MAX_BODY_CHARS} chars cut]"
    try:
        return json.loads(text)
    except ValueError:
        return text
