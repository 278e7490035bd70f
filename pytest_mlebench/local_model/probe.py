"""What a running OpenAI-compatible model server says about itself: its models and context.

``GET /v1/models`` of llama.cpp's server (that of ``mlebench model serve`` included) lists each
model with ``meta.n_ctx`` (the context the server runs with) and ``meta.n_ctx_train`` (the
model's own); other servers (Ollama, vLLM) list the models only. The server's default answer cap
is reported by none of them (llama.cpp's ``/props`` shows ``n_predict: -1`` whatever the server
was started with), so the doctor reports the agents' own caps instead.
"""

from __future__ import annotations

import json
import urllib.request
from dataclasses import dataclass
from typing import Any

PROBE_TIMEOUT_SECONDS = 5.0


@dataclass(frozen=True)
class ServerFacts:
    """A server's models, and its context and the model's trained context (``None``: unsaid)."""

    models: tuple[str, ...]
    context: int | None = None
    trained_context: int | None = None


def probe_server(base_url: str, timeout: float = PROBE_TIMEOUT_SECONDS) -> ServerFacts | None:
    """``base_url``'s answer to ``GET /models``; ``None`` when nothing answers there."""
    try:
        with urllib.request.urlopen(base_url.rstrip("/") + "/models", timeout=timeout) as answer:
            listing = json.loads(answer.read(1 << 20))
    except (OSError, ValueError):
        return None
    return server_facts(listing)


def server_facts(listing: Any) -> ServerFacts | None:
    """The facts of a ``/models`` answer; ``None`` when it is not a model list."""
    entries = listing.get("data") if isinstance(listing, dict) else None
    if not isinstance(entries, list):
        return None
    models = tuple(str(e["id"]) for e in entries if isinstance(e, dict) and "id" in e)
    metas = [e.get("meta") for e in entries if isinstance(e, dict)]
    meta = next((m for m in metas if isinstance(m, dict)), {})
    return ServerFacts(models, _count(meta.get("n_ctx")), _count(meta.get("n_ctx_train")))


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and value > 0 else None
