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
so a token far outside the top candidates gets its true (low) value, not a floor. The answer's
tokens are checked against the text's: a server that does not follow the grammar is an error,
never a figure. Long texts go in chunks of :data:`CHUNK_TOKENS` answer tokens, each chunk's
prompt the text so far; the server's prompt cache (``cache_prompt``) keeps that prefix, so a
chunk costs its own tokens only. The first token of a text without a start token is context
only, not scored (as vLLM's first prompt entry is ``null``).
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
        "n_probs": 1,
        "post_sampling_probs": False,
        "temperature": 0,
        "cache_prompt": True,
        "return_tokens": True,
        "stream": False,
    }


def forced_logprobs(answer: Any, forced: Sequence[int]) -> list[float]:
    """The log-probability of each of ``forced`` in a ``/completion`` answer.

    Raises:
        MLEBenchError: The answer's tokens are not ``forced`` (the server ignored the grammar)
            or carry no log-probabilities.
    """
    entries = answer.get("completion_probabilities") if isinstance(answer, dict) else None
    if not isinstance(entries, list):
        raise MLEBenchError("the server's /completion answer carries no completion_probabilities")
    taken = [entry.get("id") for entry in entries if isinstance(entry, dict)]
    if taken != list(forced):
        at = next((i for i, (a, b) in enumerate(zip(taken, forced, strict=False)) if a != b), None)
        where = f"token {at}" if at is not None else f"{len(taken)} of {len(forced)} tokens"
        raise MLEBenchError(
            f"the server did not follow the token grammar (its answer differs at {where}); "
            "familiarity needs a llama.cpp server whose grammars take token ids (<[id]>)"
        )
    values = [float(entry["logprob"]) for entry in entries]
    if not all(math.isfinite(value) for value in values):
        raise MLEBenchError("the server returned a log-probability that is not a number")
    return values


def text_tokens(server: LlamaServer, text: str) -> list[int]:
    """The model's tokens of ``text``, with its start token where the model adds one."""
    answer = server.post("/tokenize", {"content": text, "add_special": True})
    tokens = answer.get("tokens") if isinstance(answer, dict) else None
    if not isinstance(tokens, list) or not all(isinstance(t, int) for t in tokens):
        raise MLEBenchError(f"{server.root}/tokenize answered no token list")
    return tokens


def score_text(server: LlamaServer, text: str) -> list[float]:
    """The log-probability of each of ``text``'s tokens after the ones before it (all but the
    first token; see the module's description).

    Raises:
        MLEBenchError: The text is shorter than two tokens or longer than the server's context,
            or the server answered in a way that cannot be read.
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
    for start in range(1, len(tokens), CHUNK_TOKENS):
        forced = tokens[start : start + CHUNK_TOKENS]
        values += forced_logprobs(
            server.post("/completion", chunk_request(tokens[:start], forced)), forced
        )
    return values
