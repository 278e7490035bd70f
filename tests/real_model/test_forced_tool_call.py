"""The forced tool call against the REAL llama.cpp server, through the real gateway.

llama.cpp's server ignores a ``tool_choice`` that names a function; straight to the server the
model answers in prose. Through the gateway, with the upstream named ``local:PORT`` (declared
``schema``), the same request comes back as the forced call with JSON arguments that match the
function's parameters, and the usage the gateway books is the server's own count.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.gateway import Gateway, GatewayConfig, load_price_table
from pytest_mlebench.gateway.capabilities import SCHEMA
from pytest_mlebench.local_model import LocalModelServer
from tests.gateway.conftest import call_through, transcript
from tests.real_model.conftest import MODEL, chat

pytestmark = [pytest.mark.real_model, pytest.mark.timeout(600)]

REVIEW = {  # the shape of aideml's review function, cut to what a 135M model fills quickly
    "name": "submit_review",
    "description": "Submit a review of the program's output.",
    "parameters": {
        "type": "object",
        "properties": {
            "is_bug": {"type": "boolean", "description": "true if the program failed"},
            "metric": {"type": "number", "description": "the validation accuracy"},
        },
        "required": ["is_bug", "metric"],
    },
}
FORCED: dict[str, Any] = {
    "model": MODEL,
    "messages": [
        {"role": "system", "content": "You review programs."},
        {"role": "user", "content": "The program printed: accuracy 0.81. Review it."},
    ],
    "tools": [{"type": "function", "function": REVIEW}],
    "tool_choice": {"type": "function", "function": {"name": "submit_review"}},
    "max_tokens": 60,
    "temperature": 0,
}


def port_of(server: LocalModelServer) -> int:
    return int(server.base_url.rsplit(":", 1)[1].split("/")[0])


def test_the_server_alone_ignores_the_forced_call(model_server: LocalModelServer) -> None:
    answer = chat(model_server.base_url, FORCED)
    assert not answer["choices"][0]["message"].get("tool_calls")


def test_the_gateway_turns_it_into_the_forced_call(
    model_server: LocalModelServer, tmp_path: Path
) -> None:
    config = GatewayConfig().with_upstreams({"openai": f"local:{port_of(model_server)}"})
    assert config.providers["openai"].forced_tool_call == SCHEMA
    gateway = Gateway(config, load_price_table(), tmp_path / "run" / "gateway.jsonl")
    gateway.start(tmp_path / "sock" / "g.sock")
    try:
        (answer,) = call_through(gateway, [("/v1/chat/completions", FORCED)])
    finally:
        gateway.stop()
    assert answer["status"] == 200, answer
    choice = answer["body"]["choices"][0]
    (call,) = choice["message"]["tool_calls"]
    assert call["function"]["name"] == "submit_review"
    arguments = json.loads(call["function"]["arguments"])  # grammar-constrained: valid JSON
    assert isinstance(arguments["is_bug"], bool)
    assert isinstance(arguments["metric"], int | float)
    assert choice["finish_reason"] == "tool_calls"
    usage = answer["body"]["usage"]
    summary = gateway.summary()
    assert summary["calls"] == 1
    assert (summary["input_tokens"], summary["output_tokens"]) == (
        usage["prompt_tokens"],
        usage["completion_tokens"],
    )
    assert summary["input_tokens"] > 0 and summary["output_tokens"] > 0
    assert summary["cost_usd"] == 0.0  # a known local model: no charge
    (entry,) = transcript(gateway)
    assert entry["model"] == MODEL and "bridged" in entry
    assert entry["usage"]["reported"] is True
