"""Familiarity on llama.cpp's server: the text's own tokens forced, their log-probabilities read.

llama.cpp's server (the local model server of ``mlebench model serve``) returns no prompt
log-probabilities, but it returns those of each *generated* token (``n_probs``), taken from the
model's raw logits: a softmax over the whole vocabulary before any sampler runs
(``post_sampling_probs: false``). And its grammars can name token ids (``<[1234]>``). So a text
is scored in three steps, all on the server's native API:

1. ``POST /tokenize`` turns the text into the model's own tokens (with the model's start token
   where it adds one);
2. ``POST /completion`` gets the first token as the prompt and a grammar that admits exactly the
   remaining tokens, one after another, as the answer (``n_predict`` of them, greedy);
3. each answer token's ``logprob`` is the model's log-probability of that token after all the
   text before it: the teacher-forced log-probability a prompt-scoring server would return.

The grammar only decides which token is *taken*; the reported probability is the model's own,
so a token far outside the top candidates gets its true (low) value, not a floor. The grammar
forces whole tokens only. A token that holds part of a character (``≈`` is `` \xe2\x89`` and
``\x88`` in SmolLM2's vocabulary; ``/tokenize`` lists such pieces as bytes) is *looked up*
instead: one request with the text before it as the prompt lists the most probable next tokens
with their raw log-probabilities (256, then the whole vocabulary), and the text's token is found
in the list. llama.cpp's grammars mishandle such tokens (at the ``≈`` of ``newsgroups-20``'s
description the server took another byte token, even with the text's raised by ``logit_bias``,
and a grammar that starts inside a character fails with a server error), and its answers hold
back the figures of a token that ends inside a character, so the look-up's own answer token is
made ``.`` by ``logit_bias``. An answer is read only as far as its tokens are the text's; a token
where it departs is looked up too. Long texts go in chunks of :data:`CHUNK_TOKENS` answer tokens,
each chunk's prompt the text so far; the server's prompt cache (``cache_prompt``) keeps that
prefix, so a chunk costs its own tokens only. The first token of a text without a start token is
context only, not scored (as vLLM's first prompt entry is ``null``).
"""

from __future__ import annotations

import json
import math
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.errors import MLEBenchError

CHUNK_TOKENS = 512
BIAS = 1000.0  # far above any spread of a model's logits
# A token is looked up among the 256 most probable first, then among the whole vocabulary
# (llama.cpp caps n_probs at its size; 49,152 entries for SmolLM2 are about 5 MB of JSON).
LOOKUP_CANDIDATES = (256, 1 << 20)
ANCHOR_TEXT = "."  # one whole-character token in every vocabulary
ASK_LOGPROBS: dict[str, Any] = {
    "n_probs": 1,
    "post_sampling_probs": False,
    "temperature": 0,
    "cache_prompt": True,
    "return_tokens": True,
    "stream": False,
}
TIMEOUT_SECONDS = 600.0
PROBE_TIMEOUT_SECONDS = 5.0
METHOD = "forced-tokens"


@dataclass(frozen=True)
class LlamaServer:
    """A llama.cpp server: its root URL (no ``/v1``), the key to send, the model it serves and
    its context length in tokens (``None``: unsaid)."""

    root: str
    key: str | None
    model: str | None
    context: int | None

    def post(self, path: str, payload: dict[str, Any]) -> Any:
        """POST JSON to ``path``; the decoded answer.

        Raises:
            MLEBenchError: The server answered with an error status or could not be reached.
        """
        headers = {"Content-Type": "application/json"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        request = urllib.request.Request(
            self.root + path, json.dumps(payload).encode(), headers, method="POST"
        )
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_SECONDS) as answer:
                return json.loads(answer.read())
        except urllib.error.HTTPError as exc:
            detail = exc.read()[:300].decode("utf-8", errors="replace")
            raise MLEBenchError(f"{self.root}{path} answered {exc.code}: {detail}") from None
        except (OSError, ValueError) as exc:
            raise MLEBenchError(f"{self.root}{path} could not be asked: {exc}") from None


def llama_server(base_url: str, key: str | None) -> LlamaServer | None:
    """The llama.cpp server behind an OpenAI ``base_url`` (``…/v1``), found by its ``/props``
    (llama.cpp's own endpoint: the serving settings and the model); ``None`` for other servers."""
    root = base_url.rstrip("/").removesuffix("/v1")
    request = urllib.request.Request(root + "/props")
    if key:
        request.add_header("Authorization", f"Bearer {key}")
    try:
        with urllib.request.urlopen(request, timeout=PROBE_TIMEOUT_SECONDS) as answer:
            props = json.loads(answer.read(1 << 20))
    except (OSError, ValueError):
        return None
    settings = props.get("default_generation_settings") if isinstance(props, dict) else None
    if not isinstance(settings, dict):
        return None
    context = settings.get("n_ctx")
    alias = props.get("model_alias")
    return LlamaServer(
        root,
        key,
        alias if isinstance(alias, str) else None,
        context if isinstance(context, int) and context > 0 else None,
    )


def token_grammar(tokens: Sequence[int]) -> str:
    """A GBNF grammar that admits exactly ``tokens``, in order, by id."""
    return "root ::= " + " ".join(f"<[{token}]>" for token in tokens)


def chunk_request(prefix: Sequence[int], forced: Sequence[int]) -> dict[str, Any]:
    """The ``/completion`` request that forces ``forced`` after the prompt ``prefix``."""
    return {
        "prompt": list(prefix),
        "grammar": token_grammar(forced),
        "n_predict": len(forced),
        **ASK_LOGPROBS,
    }


def lookup_request(prefix: Sequence[int], anchor: int, candidates: int) -> dict[str, Any]:
    """The ``/completion`` request for the ``candidates`` most probable tokens after ``prefix``:
    one answer token, made ``anchor`` (a whole character, so the server sends the answer's
    figures, which it holds back for a split one) by ``logit_bias``; the candidates' figures are
    the raw model's, unbiased."""
    return {
        "prompt": list(prefix),
        "n_predict": 1,
        "logit_bias": [[anchor, BIAS]],
        **ASK_LOGPROBS,
        "n_probs": candidates,
    }


def followed_logprobs(answer: Any, forced: Sequence[int]) -> list[float]:
    """The log-probabilities of the answer's tokens up to where it departs from ``forced`` (all of
    them when it follows it to the end; each is conditioned on the text before it).

    Raises:
        MLEBenchError: The answer carries no readable log-probabilities.
    """
    entries = answer.get("completion_probabilities") if isinstance(answer, dict) else None
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        raise MLEBenchError("the server's /completion answer carries no completion_probabilities")
    values = []
    for entry, token in zip(entries, forced, strict=False):
        if entry.get("id") != token:
            break
        value = entry.get("logprob")
        if not isinstance(value, (int, float)) or not math.isfinite(value):
            raise MLEBenchError(f"the server returned the log-probability {value!r} of a token")
        values.append(float(value))
    return values


@dataclass(frozen=True)
class Tokens:
    """A text's tokens, and which of them are bytes of a character split across tokens (their
    piece is bytes, not text: llama.cpp's ``/tokenize`` lists it as numbers)."""

    ids: list[int]
    split: list[bool]

    def whole_run(self, start: int) -> int:
        """The end of the run of whole tokens from ``start`` (at most :data:`CHUNK_TOKENS`)."""
        end = min(len(self.ids), start + CHUNK_TOKENS)
        return next((i for i in range(start, end) if self.split[i]), end)


def text_tokens(server: LlamaServer, text: str) -> Tokens:
    """The model's tokens of ``text``, with its start token where the model adds one."""
    answer = server.post("/tokenize", {"content": text, "add_special": True, "with_pieces": True})
    entries = answer.get("tokens") if isinstance(answer, dict) else None
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("id"), int) for e in entries
    ):
        raise MLEBenchError(f"{server.root}/tokenize answered no token list")
    return Tokens(
        [e["id"] for e in entries], [not isinstance(e.get("piece"), str) for e in entries]
    )


@dataclass(frozen=True)
class TextScore:
    """A text's scored tokens' log-probabilities and the requests they took: chunks forced by
    grammar, and look-ups of single tokens (split characters, and where an answer departed)."""

    logprobs: list[float]
    chunk_requests: int
    lookups: int


def score_text(server: LlamaServer, text: str) -> TextScore:
    """The log-probability of each of ``text``'s tokens after the ones before it (all but the
    first token; see the module's description).

    Raises:
        MLEBenchError: The text is shorter than two tokens or longer than the server's context,
            or the server answered in a way that cannot be read.
    """
    tokens = text_tokens(server, text)
    ids = tokens.ids
    if len(ids) < 2:
        raise MLEBenchError(f"the text {text[:40]!r} has fewer than two tokens: nothing to score")
    if server.context is not None and len(ids) > server.context:
        raise MLEBenchError(
            f"the text has {len(ids)} tokens, more than the server's context of "
            f"{server.context}: start the server with a larger one (mlebench model serve "
            f"--context {len(ids)})"
        )
    values: list[float] = []
    chunks = lookups = 0
    anchor = None
    while (position := len(values) + 1) < len(ids):
        forced = ids[position : tokens.whole_run(position)]
        if forced:
            chunks += 1
            answer = server.post("/completion", chunk_request(ids[:position], forced))
            values += (scored := followed_logprobs(answer, forced))
            if len(scored) == len(forced):
                continue
        at = len(values) + 1  # a split character's byte, or where the answer departed
        anchor = anchor if anchor is not None else text_tokens(server, ANCHOR_TEXT).ids[-1]
        values.append(look_up(server, ids[:at], ids[at], anchor))
        lookups += 1
    return TextScore(values, chunks, lookups)


def look_up(server: LlamaServer, prefix: Sequence[int], token: int, anchor: int) -> float:
    """``token``'s log-probability after ``prefix``, from the server's list of the most probable
    tokens there (:data:`LOOKUP_CANDIDATES`, then the whole vocabulary).

    Raises:
        MLEBenchError: ``token`` is not in the whole list either.
    """
    for candidates in LOOKUP_CANDIDATES:
        answer = server.post("/completion", lookup_request(prefix, anchor, candidates))
        entries = answer.get("completion_probabilities") if isinstance(answer, dict) else None
        top = entries[0].get("top_logprobs") if isinstance(entries, list) and entries else None
        for entry in top if isinstance(top, list) else []:
            if isinstance(entry, dict) and entry.get("id") == token:
                return float(entry["logprob"])
    raise MLEBenchError(
        f"the server at {server.root} did not list token {token} among all its candidates "
        "after the text before it: it cannot score this text"
    )
