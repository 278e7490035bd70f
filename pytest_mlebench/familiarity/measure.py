"""Ask a model for the log-probabilities of each description, by the method its server allows.

Two methods, chosen by the server (its ``/props`` answer tells llama.cpp's apart):

- **prompt log-probabilities** (vLLM), through the LLM gateway. One gateway is started in this
  process for the whole measurement (as the integrity judge does: the same key resolution, price
  table, token accounting and transcript with keys removed), on a unix socket in a short
  temporary folder, and stopped after it. Each description is sent as the user message of a chat
  request that asks for one answer token and for the prompt's log-probabilities
  (``prompt_logprobs: 0``); the chat template's tokens are scored too, alike for every
  competition. The first reply without them stops the measurement with
  :class:`~pytest_mlebench.familiarity.prompt_logprobs.NoPromptLogprobs`.
- **forced tokens** (llama.cpp's server, the local model server among them), on the server's
  native API (:mod:`.forced_tokens`), which the gateway does not serve: the description alone,
  as raw text, no chat template. The server is asked directly with the provider's key, if any;
  nothing is priced (a local server has no price) and no transcript is written.

Either way the figures compare competitions for one model, not models with each other.
"""

from __future__ import annotations

import math
import shutil
import tempfile
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.familiarity.forced_tokens import METHOD as FORCED_TOKENS
from pytest_mlebench.familiarity.forced_tokens import LlamaServer, llama_server, score_text
from pytest_mlebench.familiarity.prompt_logprobs import mean_prompt_logprob
from pytest_mlebench.gateway import Gateway, GatewayConfig
from pytest_mlebench.gateway.unix_client import post_json
from pytest_mlebench.integrity.judge import JudgeSetup

ROUTE = "/v1/chat/completions"
PROMPT_LOGPROBS = "prompt-logprobs"


@dataclass
class Measurement:
    """Per competition the mean log-probability per scored token and the token count; the
    method, and where the figures came from (the gateway's account, or the server asked)."""

    model: str
    method: str
    familiarity: dict[str, float] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)
    source: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "method": self.method,
            "competitions": {
                cid: {"mean_logprob": value, "tokens": self.tokens[cid]}
                for cid, value in sorted(self.familiarity.items())
            },
            "gateway" if self.method == PROMPT_LOGPROBS else "server": self.source,
        }


def measure(setup: JudgeSetup, descriptions: Mapping[str, str], transcript: Path) -> Measurement:
    """The familiarity of ``setup``'s model with each of ``descriptions`` (id → text).

    Raises:
        NoPromptLogprobs: The server is not llama.cpp's and returns no prompt log-probabilities.
        MLEBenchError: The provider answered with an error status, or a llama.cpp server serves
            another model than ``setup``'s.
    """
    if setup.provider.name != "openai":
        raise MLEBenchError(
            f"familiarity needs an OpenAI-compatible server that returns prompt log-probabilities "
            f"(vLLM) or llama.cpp's server; {setup.model} goes to {setup.provider.name}"
        )
    server = llama_server(setup.provider.base_url, setup.provider.resolved_key(setup.environ))
    if server is not None:
        return measure_forced(setup.upstream_model, server, descriptions)
    return measure_through_gateway(setup, descriptions, transcript)


def measure_forced(model: str, server: LlamaServer, descriptions: Mapping[str, str]) -> Measurement:
    """Score each description on llama.cpp's server by forcing its tokens (:mod:`.forced_tokens`).

    Raises:
        MLEBenchError: The server serves another model than ``model``, or cannot score a text.
    """
    if server.model is not None and server.model != model:
        raise MLEBenchError(
            f"the llama.cpp server at {server.root} serves {server.model}, not {model}: "
            f"pass --model {server.model}, or start the server with {model}"
        )
    result = Measurement(model, FORCED_TOKENS)
    started = time.monotonic()
    chunks = lookups = 0
    for cid, text in sorted(descriptions.items()):
        try:
            score = score_text(server, text)
        except MLEBenchError as exc:
            raise MLEBenchError(f"{cid}: {exc}") from None
        values = score.logprobs
        result.familiarity[cid], result.tokens[cid] = math.fsum(values) / len(values), len(values)
        chunks, lookups = chunks + score.chunk_requests, lookups + score.lookups
    result.source = {
        "url": server.root,
        "served_model": server.model,
        "scored_tokens": sum(result.tokens.values()),
        "chunk_requests": chunks,
        "lookups": lookups,
        "seconds": round(time.monotonic() - started, 3),
    }
    return result


def measure_through_gateway(
    setup: JudgeSetup, descriptions: Mapping[str, str], transcript: Path
) -> Measurement:
    """Score each description by the prompt log-probabilities of a chat request (vLLM)."""
    provider = setup.provider
    gateway = Gateway(
        GatewayConfig({provider.name: provider}), setup.prices, transcript, environ=setup.environ
    )
    folder = Path(tempfile.mkdtemp(prefix="mlebench-familiarity-"))
    result = Measurement(setup.model, PROMPT_LOGPROBS)
    try:
        gateway.start(folder / "gateway.sock")
        for cid, text in sorted(descriptions.items()):
            status, body = post_json(
                folder / "gateway.sock", gateway.token, ROUTE, _request(setup, text)
            )
            if status != 200:
                raise MLEBenchError(f"{cid}: the provider answered {status}: {str(body)[:300]}")
            result.familiarity[cid], result.tokens[cid] = mean_prompt_logprob(body)
    finally:
        gateway.stop()
        shutil.rmtree(folder, ignore_errors=True)
    summary = gateway.summary()
    result.source = {key: summary.get(key) for key in ("input_tokens", "cost_usd", "calls")}
    return result


def _request(setup: JudgeSetup, text: str) -> dict[str, Any]:
    return {
        "model": setup.upstream_model,
        "messages": [{"role": "user", "content": text}],
        "max_tokens": 1,
        "temperature": 0,
        "prompt_logprobs": 0,
    }
