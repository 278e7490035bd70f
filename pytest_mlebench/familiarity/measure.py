"""Ask a model, through the LLM gateway, for the log-probabilities of each description.

One gateway is started in this process for the whole measurement (as the integrity judge does:
the same key resolution, price table, token accounting and transcript with keys removed), on a
unix socket in a short temporary folder, and stopped after it. Each competition's description is
sent as the user message of a chat request that asks for one answer token and for the prompt's
log-probabilities (``prompt_logprobs: 0``, vLLM's parameter); the chat template's tokens are
scored too, alike for every competition, so the numbers compare across competitions of one model,
not across models. The first reply without prompt log-probabilities stops the measurement with
:class:`~pytest_mlebench.familiarity.prompt_logprobs.NoPromptLogprobs`.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.familiarity.prompt_logprobs import mean_prompt_logprob
from pytest_mlebench.gateway import Gateway, GatewayConfig
from pytest_mlebench.gateway.unix_client import post_json
from pytest_mlebench.integrity.judge import JudgeSetup

ROUTE = "/v1/chat/completions"


@dataclass
class Measurement:
    """Per competition the mean prompt log-probability and its token count; the gateway's
    account of the calls."""

    model: str
    familiarity: dict[str, float] = field(default_factory=dict)
    tokens: dict[str, int] = field(default_factory=dict)
    accounting: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "model": self.model,
            "competitions": {
                cid: {"mean_logprob": value, "tokens": self.tokens[cid]}
                for cid, value in sorted(self.familiarity.items())
            },
            "gateway": self.accounting,
        }


def measure(setup: JudgeSetup, descriptions: Mapping[str, str], transcript: Path) -> Measurement:
    """The familiarity of ``setup``'s model with each of ``descriptions`` (id → text).

    Raises:
        NoPromptLogprobs: The server returns no prompt log-probabilities.
        MLEBenchError: The provider answered with an error status.
    """
    if setup.provider.name != "openai":
        raise MLEBenchError(
            f"familiarity needs an OpenAI-compatible server that returns prompt log-probabilities "
            f"(vLLM); {setup.model} goes to {setup.provider.name}"
        )
    provider = setup.provider
    gateway = Gateway(
        GatewayConfig({provider.name: provider}), setup.prices, transcript, environ=setup.environ
    )
    folder = Path(tempfile.mkdtemp(prefix="mlebench-familiarity-"))
    result = Measurement(setup.model)
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
    result.accounting = {key: summary.get(key) for key in ("input_tokens", "cost_usd", "calls")}
    return result


def _request(setup: JudgeSetup, text: str) -> dict[str, Any]:
    return {
        "model": setup.upstream_model,
        "messages": [{"role": "user", "content": text}],
        "max_tokens": 1,
        "temperature": 0,
        "prompt_logprobs": 0,
    }
