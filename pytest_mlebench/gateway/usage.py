"""Token counts from the providers' answers: whole JSON bodies and server-sent event streams.

Pure functions over bytes and dicts. OpenAI's chat completions and embeddings report
``prompt_tokens`` / ``completion_tokens``; its responses API and Anthropic's messages API report
``input_tokens`` / ``output_tokens`` (Anthropic's cache reads and writes count as input). In a
stream the counts come in the last chunk (chat completions with ``include_usage``), in the
``response.completed`` event (responses) or split over ``message_start`` and ``message_delta``
(Anthropic); :class:`StreamUsage` reads them as the bytes pass through.

An answer cut at its token cap is marked ``truncated``: ``finish_reason: length`` (chat
completions), ``status: incomplete`` for ``max_output_tokens`` (responses), ``stop_reason:
max_tokens`` (Anthropic).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import Any

ANTHROPIC_INPUT_KEYS = ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens")


@dataclass(frozen=True)
class Usage:
    """Tokens one call used, the model that answered (``None`` when the answer says none) and
    whether the answer was cut at its token cap."""

    input_tokens: int = 0
    output_tokens: int = 0
    model: str | None = None
    reported: bool = False
    truncated: bool = False


def was_truncated(body: Any) -> bool:
    """Whether a whole answer (or one stream event's payload) says it was cut at its cap."""
    if not isinstance(body, dict):
        return False
    choices = body.get("choices")
    if isinstance(choices, list) and any(
        isinstance(c, dict) and c.get("finish_reason") == "length" for c in choices
    ):
        return True
    details = body.get("incomplete_details")
    if body.get("status") == "incomplete" and isinstance(details, dict):
        return details.get("reason") == "max_output_tokens"
    delta = body.get("delta")
    stop = delta.get("stop_reason") if isinstance(delta, dict) else body.get("stop_reason")
    return stop == "max_tokens"


def usage_of(body: Any) -> Usage:
    """The usage a JSON answer reports (zero and ``reported=False`` when it reports none)."""
    if not isinstance(body, dict):
        return Usage()
    return replace(_counted(body), truncated=was_truncated(body))


def _counted(body: dict[str, Any]) -> Usage:
    model = body.get("model") if isinstance(body.get("model"), str) else None
    usage = body.get("usage")
    if not isinstance(usage, dict):
        return Usage(model=model)
    if "prompt_tokens" in usage:  # chat completions, embeddings
        return Usage(
            _count(usage.get("prompt_tokens")),
            _count(usage.get("completion_tokens")),
            model,
            reported=True,
        )
    if "input_tokens" in usage or "output_tokens" in usage:  # responses, anthropic messages
        return Usage(
            sum(_count(usage.get(key)) for key in ANTHROPIC_INPUT_KEYS),
            _count(usage.get("output_tokens")),
            model,
            reported=True,
        )
    return Usage(model=model)


def _count(value: Any) -> int:
    return int(value) if isinstance(value, (int, float)) and value >= 0 else 0


class StreamUsage:
    """Reads usage out of an SSE stream fed in arbitrary chunks (events may span chunks)."""

    def __init__(self) -> None:
        self._pending = b""
        self.input_tokens = 0
        self.output_tokens = 0
        self.model: str | None = None
        self.reported = False
        self.truncated = False

    def feed(self, chunk: bytes) -> None:
        self._pending += chunk
        *lines, self._pending = self._pending.split(b"\n")
        for line in lines:
            self._line(line.strip())

    def finish(self) -> Usage:
        if self._pending:
            self._line(self._pending.strip())
            self._pending = b""
        return Usage(
            self.input_tokens, self.output_tokens, self.model, self.reported, self.truncated
        )

    def _line(self, line: bytes) -> None:
        if not line.startswith(b"data:"):
            return
        payload = line[5:].strip()
        if not payload or payload == b"[DONE]":
            return
        try:
            event = json.loads(payload)
        except ValueError:
            return
        if isinstance(event, dict):
            self._event(event)

    def _event(self, event: dict[str, Any]) -> None:
        kind = event.get("type")
        self.truncated = (
            self.truncated or was_truncated(event) or was_truncated(event.get("response"))
        )
        if kind == "message_start":  # anthropic: input counted at the start
            self._take(usage_of(event.get("message")), replace_output=False)
        elif kind == "message_delta":  # anthropic: output counted at the end
            usage = event.get("usage") or {}
            self.output_tokens = _count(usage.get("output_tokens"))
            self.reported = True
        elif kind in ("response.completed", "response.incomplete", "response.failed"):
            self._take(usage_of(event.get("response")), replace_output=True)
        else:  # chat completions chunks
            self._take(usage_of(event), replace_output=True)

    def _take(self, usage: Usage, *, replace_output: bool) -> None:
        self.model = usage.model or self.model
        if not usage.reported:
            return
        self.input_tokens = usage.input_tokens
        if replace_output:
            self.output_tokens = usage.output_tokens
        self.reported = True
