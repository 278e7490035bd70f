"""The mean log-probability of a prompt's tokens, from a chat reply that carries them. Pure.

OpenAI-compatible servers return log-probabilities of the *answer* only. vLLM also returns those
of the *prompt* when the request asks for ``prompt_logprobs`` (a list, one entry per prompt
token: ``null`` for the first, else ``{token id: {"logprob": …, "decoded_token": …}}``; with
``prompt_logprobs: 0`` each entry holds the prompt's own token only). A reply without them means
the server cannot be scored this way: llama.cpp's server (``mlebench model serve``) is one, and is
scored by forcing the text's tokens instead (:mod:`.forced_tokens`).
"""

from __future__ import annotations

import math
from typing import Any

from pytest_mlebench.errors import MLEBenchError


class NoPromptLogprobs(MLEBenchError):
    """The server's reply carries no prompt log-probabilities."""


def mean_prompt_logprob(body: Any) -> tuple[float, int]:
    """The mean log-probability over the prompt's scored tokens, and how many there were.

    Raises:
        NoPromptLogprobs: When ``body`` has no usable ``prompt_logprobs``.
    """
    entries = body.get("prompt_logprobs") if isinstance(body, dict) else None
    if not isinstance(entries, list):
        raise NoPromptLogprobs(
            "the server returned no prompt log-probabilities (a vLLM server does, with "
            "prompt_logprobs, and llama.cpp's server is scored by forcing tokens; hosted APIs "
            "cannot be scored)"
        )
    values = [_own_logprob(entry) for entry in entries if entry]
    scored = [value for value in values if value is not None and math.isfinite(value)]
    if not scored:
        raise NoPromptLogprobs("the server's prompt_logprobs list holds no value")
    return math.fsum(scored) / len(scored), len(scored)


def _own_logprob(entry: Any) -> float | None:
    """The log-probability of the prompt's own token at one position (the only one asked for;
    with more candidates, the best-ranked rank-free one is the prompt's, as vLLM lists it first)."""
    if not isinstance(entry, dict) or not entry:
        return None
    first = next(iter(entry.values()))
    if isinstance(first, dict) and "logprob" in first:
        return float(first["logprob"])
    return float(first) if isinstance(first, (int, float)) else None
