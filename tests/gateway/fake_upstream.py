"""A FAKE OpenAI/Anthropic-compatible upstream for the gateway's tests (loopback only).

It answers chat completions, responses, embeddings and Anthropic messages with fixed usage
(:data:`INPUT_TOKENS` in, :data:`OUTPUT_TOKENS` out per call), streams when asked, and fails on
demand: a model named ``status-NNN`` gets HTTP NNN with an error body. Every request it receives is
kept (path, headers, body) so tests can check what the gateway sent upstream — the real key, never
the run's token. ``reply``, when set, is the text of every (non-streamed) chat completion and
Anthropic message (the LLM judge's tests set it); ``chat``, when set, answers every non-streamed
chat completion whole from its request (the AIDE tests script a whole agent run that way).
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

INPUT_TOKENS = 120
OUTPUT_TOKENS = 30


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class FakeUpstream:
    """Start with ``with FakeUpstream() as fake:``; ``fake.url`` is its ``/v1`` base URL."""

    received: list[Received] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None
    reply: str | None = None
    chat: Callable[[dict[str, Any]], dict[str, Any]] | None = None

    @property
    def root(self) -> str:
        assert self.server is not None
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    @property
    def url(self) -> str:
        return f"{self.root}/v1"

    def __enter__(self) -> FakeUpstream:
        fake = self

        class Handler(_Handler):
            upstream = fake

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


class _Handler(BaseHTTPRequestHandler):
    upstream: FakeUpstream
    protocol_version = "HTTP/1.0"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        self._json(200, {"object": "list", "data": [{"id": "gpt-4o-mini", "object": "model"}]})

    def do_POST(self) -> None:
        size = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(size) or b"{}")
        self.upstream.received.append(Received(self.path, dict(self.headers.items()), body))
        model = str(body.get("model", ""))
        if model.startswith("status-"):
            status = int(model.removeprefix("status-"))
            self._json(
                status, {"error": {"message": f"fake upstream says {status}", "type": "fake_error"}}
            )
            return
        scripted = self.upstream.chat
        if scripted is not None and self.path == "/v1/chat/completions" and not body.get("stream"):
            self._json(200, scripted(body))
            return
        answer = ANSWERS.get(self.path)
        if answer is None:
            self._json(404, {"error": {"message": f"fake upstream has no {self.path}"}})
            return
        if body.get("stream"):
            self._stream(STREAMS[self.path](model, body))
            return
        self._json(200, _with_reply(answer(model), self.upstream.reply))

    def _json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("x-request-id", "fake-request")
        self.end_headers()
        self.wfile.write(data)

    def _stream(self, events: list[dict[str, Any] | str]) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        for event in events:
            text = event if isinstance(event, str) else json.dumps(event)
            self.wfile.write(f"data: {text}\n\n".encode())
            self.wfile.flush()


def _with_reply(payload: dict[str, Any], reply: str | None) -> dict[str, Any]:
    if reply is None:
        return payload
    if "choices" in payload:
        payload["choices"][0]["message"]["content"] = reply
    elif payload.get("type") == "message":
        payload["content"] = [{"type": "text", "text": reply}]
    return payload


def _chat(model: str) -> dict[str, Any]:
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": "fake answer"},
                "finish_reason": "stop",
            }
        ],
        "usage": {
            "prompt_tokens": INPUT_TOKENS,
            "completion_tokens": OUTPUT_TOKENS,
            "total_tokens": INPUT_TOKENS + OUTPUT_TOKENS,
        },
    }


def _chat_stream(model: str, body: dict[str, Any]) -> list[dict[str, Any] | str]:
    chunk = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "model": model}
    events: list[dict[str, Any] | str] = [
        {**chunk, "choices": [{"index": 0, "delta": {"content": word}}]}
        for word in ("fake ", "streamed ", "answer")
    ]
    if (body.get("stream_options") or {}).get("include_usage"):
        events.append({**chunk, "choices": [], "usage": _chat(model)["usage"]})
    return [*events, "[DONE]"]


def _responses(model: str) -> dict[str, Any]:
    return {
        "id": "resp-fake",
        "object": "response",
        "model": model,
        "output": [{"type": "message", "content": [{"type": "output_text", "text": "ok"}]}],
        "usage": {"input_tokens": INPUT_TOKENS, "output_tokens": OUTPUT_TOKENS},
    }


def _embeddings(model: str) -> dict[str, Any]:
    return {
        "object": "list",
        "model": model,
        "data": [{"object": "embedding", "index": 0, "embedding": [0.1, 0.2]}],
        "usage": {"prompt_tokens": INPUT_TOKENS, "total_tokens": INPUT_TOKENS},
    }


def _messages(model: str) -> dict[str, Any]:
    return {
        "id": "msg-fake",
        "type": "message",
        "model": model,
        "role": "assistant",
        "content": [{"type": "text", "text": "ok"}],
        "usage": {"input_tokens": INPUT_TOKENS, "output_tokens": OUTPUT_TOKENS},
    }


def _messages_stream(model: str, body: dict[str, Any]) -> list[dict[str, Any] | str]:
    start = _messages(model)
    start["usage"] = {"input_tokens": INPUT_TOKENS, "output_tokens": 1}
    return [
        {"type": "message_start", "message": start},
        {"type": "content_block_delta", "index": 0, "delta": {"type": "text_delta", "text": "ok"}},
        {
            "type": "message_delta",
            "delta": {"stop_reason": "end_turn"},
            "usage": {"output_tokens": OUTPUT_TOKENS},
        },
        {"type": "message_stop"},
    ]


ANSWERS = {
    "/v1/chat/completions": _chat,
    "/v1/responses": _responses,
    "/v1/embeddings": _embeddings,
    "/v1/messages": _messages,
}
STREAMS = {"/v1/chat/completions": _chat_stream, "/v1/messages": _messages_stream}
