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
so a token far outside the top candidates gets its true (low) value, not a floor. The answer is
read only as far as its tokens are the text's. Where the server's grammar lets another token
through (llama.cpp's does where a character is split into byte tokens: at the ``≈`` of
``newsgroups-20``'s description it took a byte token other than the text's), that one token is
asked alone, the text before it as the prompt and the token made the answer by ``logit_bias``
(the bias decides the choice; the reported log-probability is again the unbiased one), and
forcing goes on after it. A server that follows neither is an error, never a figure. Long texts
go in chunks of :data:`CHUNK_TOKENS` answer tokens, each chunk's prompt the text so far; the
server's prompt cache (``cache_prompt``) keeps that prefix, so a chunk costs its own tokens only.
The first token of a text without a start token is context only, not scored (as vLLM's first
prompt entry is ``null``).
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


def token_request(prefix: Sequence[int], token: int) -> dict[str, Any]:
    """The ``/completion`` request that makes ``token`` the one answer token after ``prefix`` by
    ``logit_bias`` (the bias decides the choice; the reported log-probability is unbiased)."""
    return {"prompt": list(prefix), "n_predict": 1, "logit_bias": [[token, BIAS]], **ASK_LOGPROBS}


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


def text_tokens(server: LlamaServer, text: str) -> list[int]:
    """The model's tokens of ``text``, with its start token where the model adds one."""
    answer = server.post("/tokenize", {"content": text, "add_special": True})
    tokens = answer.get("tokens") if isinstance(answer, dict) else None
    if not isinstance(tokens, list) or not all(isinstance(t, int) for t in tokens):
        raise MLEBenchError(f"{server.root}/tokenize answered no token list")
    return tokens


@dataclass(frozen=True)
class TextScore:
    """A text's scored tokens' log-probabilities and the requests they took: chunks forced by
    grammar, and single tokens forced by ``logit_bias`` where a chunk's answer departed."""

    logprobs: list[float]
    chunk_requests: int
    token_requests: int


def score_text(server: LlamaServer, text: str) -> TextScore:
    """The log-probability of each of ``text``'s tokens after the ones before it (all but the
    first token; see the module's description).

    Raises:
        MLEBenchError: The text is shorter than two tokens or longer than the server's context,
            or the server answered in a way that cannot be read or does not force tokens.
    """
    tokens = text_tokens(server, text)
    if len(tokens) < 2:
        raise MLEBenchError(f"the text {text[:40]!r} has fewer than two tokens: nothing to score")
    if server.context is not None and len(tokens) > server.context:
        raise MLEBenchError(
            f"the text has {len(tokens)} tokens, more than the server's context of "
            f"{server.context}: start the server with a larger one (mlebench model serve "
            f"--context {len(tokens)})"
        )
    values: list[float] = []
    chunks = singles = 0
    while (position := len(values) + 1) < len(tokens):
        forced = tokens[position : position + CHUNK_TOKENS]
        chunks += 1
        answer = server.post("/completion", chunk_request(tokens[:position], forced))
        values += (scored := followed_logprobs(answer, forced))
        if len(scored) < len(forced):  # the answer departed: that token alone, by logit_bias
            singles += 1
            values += _single(server, tokens[: position + len(scored)], forced[len(scored)])
    return TextScore(values, chunks, singles)


def _single(server: LlamaServer, prefix: Sequence[int], token: int) -> list[float]:
    value = followed_logprobs(server.post("/completion", token_request(prefix, token)), [token])
    if not value:
        raise MLEBenchError(
            f"the server at {server.root} answered another token than the one it was made to "
            "answer (by a token grammar, then by logit_bias): it cannot score a text's tokens"
        )
    return value
