"""A FAKE llama.cpp server for the familiarity tests (loopback only): ``/props``, ``/tokenize``
and ``/completion`` in llama.cpp's shapes, over a made-up model.

Its tokens are the text's words (ids given in order of first sight; id 0 is the start token
``<s>``, added by ``/tokenize`` with ``add_special`` when ``start_token`` is set). Its model
gives the token at position ``p`` (counted from the prompt's start) the log-probability
:func:`fake_logprob`, so a test knows every expected figure, and a request with the wrong prompt
before the forced tokens gets other figures. Words in ``split_words`` stand for bytes of a split
character: ``/tokenize`` lists their piece as bytes. ``/completion`` answers the tokens its token
grammar names (``<[id]>`` …) up to the first one in ``grammar_skips`` (there it answers another
token, as the real server sometimes does); without a grammar it answers the token its
``logit_bias`` raises, with the ``n_probs`` most probable words of its vocabulary as
``top_logprobs`` (none with ``lists_candidates`` off). Every request is kept (path and body).
"""

from __future__ import annotations

import json
import re
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

START = "<s>"


def fake_logprob(word: str, position: int) -> float:
    """The fake model's log-probability of ``word`` at ``position`` (0 = the first token)."""
    return -len(word) / 10 - position / 100


@dataclass
class FakeLlamaServer:
    """Start with ``with FakeLlamaServer() as fake:``; ``fake.url`` is its ``/v1`` base URL."""

    alias: str = "fake-llama"
    context: int = 4096
    start_token: bool = False
    grammar_skips: frozenset[str] = frozenset()
    split_words: frozenset[str] = frozenset()
    lists_candidates: bool = True
    received: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    vocabulary: list[str] = field(default_factory=lambda: [START])
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def tokenize(self, text: str, add_special: bool) -> list[dict[str, Any]]:
        words = ([START] if add_special and self.start_token else []) + text.split()
        for word in words:
            if word not in self.vocabulary:
                self.vocabulary.append(word)
        return [
            {
                "id": self.vocabulary.index(word),
                "piece": list(word.encode()) if word in self.split_words else word,
            }
            for word in words
        ]

    def complete(self, body: dict[str, Any]) -> dict[str, Any]:
        prompt, other = body["prompt"], len(self.vocabulary)
        if "grammar" in body:
            named = [int(token) for token in re.findall(r"<\[(\d+)\]>", body["grammar"])]
            taken = named[: body["n_predict"]]
            skipped = [i for i, t in enumerate(taken) if self._word(t) in self.grammar_skips]
            taken = [*taken[: skipped[0]], other] if skipped else taken
        else:
            taken = [body["logit_bias"][0][0]]
        entries = [
            {
                "id": token,
                "token": self._word(token),
                "logprob": fake_logprob(self._word(token), len(prompt) + i),
                "top_logprobs": self._candidates(len(prompt) + i, body["n_probs"]),
            }
            for i, token in enumerate(taken)
        ]
        return {"tokens": taken, "completion_probabilities": entries, "stop_type": "limit"}

    def _candidates(self, position: int, count: int) -> list[dict[str, Any]]:
        if not self.lists_candidates:
            return []
        listed = [
            {"id": token, "token": word, "logprob": fake_logprob(word, position)}
            for token, word in enumerate(self.vocabulary)
        ]
        return sorted(listed, key=lambda entry: -entry["logprob"])[:count]

    def _word(self, token: int) -> str:
        return self.vocabulary[token] if token < len(self.vocabulary) else "?"

    def __enter__(self) -> FakeLlamaServer:
        fake = self

        class Handler(_Handler):
            llama = fake

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
    llama: FakeLlamaServer
    protocol_version = "HTTP/1.0"

    def log_message(self, format: str, *args: Any) -> None:
        return

    def do_GET(self) -> None:
        if self.path != "/props":
            self._json(404, {"error": {"message": f"fake llama.cpp server has no {self.path}"}})
            return
        settings = {"n_ctx": self.llama.context, "params": {"n_probs": 0}}
        self._json(200, {"default_generation_settings": settings, "model_alias": self.llama.alias})

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)))
        self.llama.received.append((self.path, body))
        if self.path == "/tokenize":
            tokens = self.llama.tokenize(body["content"], bool(body.get("add_special")))
            shown = tokens if body.get("with_pieces") else [token["id"] for token in tokens]
            self._json(200, {"tokens": shown})
        elif self.path == "/completion":
            self._json(200, self.llama.complete(body))
        else:
            self._json(404, {"error": {"message": f"fake llama.cpp server has no {self.path}"}})

    def _json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
