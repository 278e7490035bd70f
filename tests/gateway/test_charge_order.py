"""The gateway books a call before the agent has its answer's end (``gateway/relay.py``).

An agent calling again the instant an answer is complete must find that answer already in the
ledger; before, the charge came after the send, and a spent budget let one more call through now
and then (a CI run saw ``[200, 200, 200, 429]`` where the budget allowed two). The fake request
below records what the ledger held at each write to the agent."""

from __future__ import annotations

import io
import json
from typing import Any

from pytest_mlebench.gateway.relay import pass_through
from pytest_mlebench.gateway.usage import Usage


class RecordingRequest:
    """A stand-in for the handler: every write notes how many charges had been made."""

    def __init__(self, charges: list[Usage]) -> None:
        self.charges = charges
        self.writes: list[tuple[bytes, int]] = []
        self.wfile = self

    def send_response(self, status: int) -> None:
        self.status = status

    def send_header(self, name: str, value: str) -> None:
        pass

    def end_headers(self) -> None:
        pass

    def write(self, data: bytes) -> None:
        self.writes.append((data, len(self.charges)))

    def flush(self) -> None:
        pass


class Answer(io.BytesIO):
    def __init__(self, body: bytes, chunk: int) -> None:
        super().__init__(body)
        self.chunk = chunk

    def read1(self, size: int = -1) -> bytes:
        return self.read(min(size, self.chunk))


def test_a_whole_answer_is_charged_before_it_is_sent() -> None:
    charges: list[Usage] = []
    request = RecordingRequest(charges)
    body = json.dumps({"model": "m", "usage": {"prompt_tokens": 7, "completion_tokens": 3}})
    headers = {"Content-Type": "application/json"}
    usage, _, broken = pass_through(
        request, 200, headers, Answer(body.encode(), 1 << 16), charges.append
    )  # type: ignore[arg-type]
    assert broken is None
    assert charges == [usage] and (usage.input_tokens, usage.output_tokens) == (7, 3)
    assert request.writes and all(seen == 1 for _, seen in request.writes)


def test_a_stream_holds_its_last_chunk_until_the_usage_is_charged() -> None:
    events = [
        {"choices": [{"delta": {"content": "hi"}}]},
        {"choices": [], "usage": {"prompt_tokens": 5, "completion_tokens": 2}},
    ]
    stream = "".join(f"data: {json.dumps(e)}\n\n" for e in events) + "data: [DONE]\n\n"
    charges: list[Usage] = []
    request = RecordingRequest(charges)
    headers: dict[str, Any] = {"Content-Type": "text/event-stream"}
    usage, _, broken = pass_through(
        request, 200, headers, Answer(stream.encode(), 16), charges.append
    )  # type: ignore[arg-type]
    assert broken is None and charges == [usage]
    assert (usage.input_tokens, usage.output_tokens) == (5, 2)
    assert b"".join(data for data, _ in request.writes) == stream.encode()
    last_data, charged_then = request.writes[-1]
    assert b"[DONE]" in last_data and charged_then == 1
    assert all(seen == 0 for _, seen in request.writes[:-1])  # the rest streamed as it came
