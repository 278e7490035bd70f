"""A tool call the REAL model writes as text, read back by the real gateway.

Offered mini-swe-agent's ``bash`` tool, SmolLM2-135M on llama.cpp's server answers with a fenced
``bash`` block in its text and no ``tool_calls`` (straight to the server). Through the gateway,
with the upstream named ``local:PORT`` (declared ``tool_calls: text``), the same request comes back
as a ``bash`` call whose command is the block's, noted as bridged in the transcript.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.gateway import Gateway, GatewayConfig, load_price_table
from pytest_mlebench.gateway.capabilities import TEXT
from pytest_mlebench.local_model import LocalModelServer
from tests.gateway.conftest import call_through, transcript
from tests.real_model.conftest import MODEL, chat
from tests.real_model.test_forced_tool_call import port_of

pytestmark = [pytest.mark.real_model, pytest.mark.timeout(600)]

BASH = {
    "name": "bash",
    "description": "Execute a bash command",
    "parameters": {
        "type": "object",
        "properties": {"command": {"type": "string"}},
        "required": ["command"],
    },
}
OFFERED: dict[str, Any] = {
    "model": MODEL,
    "messages": [
        {
            "role": "system",
            "content": "You run shell commands. Answer with one bash code block and nothing else.",
        },
        {"role": "user", "content": "Show the files in the current folder."},
    ],
    "tools": [{"type": "function", "function": BASH}],
    "max_tokens": 80,
    "temperature": 0,
    # llama.cpp's own field: no reuse of an earlier prompt's cache, whose state (left by the
    # tier's other tests) changes a greedy answer; both calls then compute the same one
    "cache_prompt": False,
}


def test_the_text_call_becomes_a_bash_tool_call(
    model_server: LocalModelServer, tmp_path: Path
) -> None:
    alone = chat(model_server.base_url, OFFERED)["choices"][0]["message"]
    assert not alone.get("tool_calls") and "```bash" in alone["content"]
    config = GatewayConfig().with_upstreams({"openai": f"local:{port_of(model_server)}"})
    assert config.providers["openai"].tool_calls == TEXT
    gateway = Gateway(config, load_price_table(), tmp_path / "run" / "gateway.jsonl")
    gateway.start(tmp_path / "sock" / "g.sock")
    try:
        (answer,) = call_through(gateway, [("/v1/chat/completions", OFFERED)])
    finally:
        gateway.stop()
    assert answer["status"] == 200, answer
    message = answer["body"]["choices"][0]["message"]
    assert message.get("tool_calls"), (alone, message)
    (call,) = message["tool_calls"]
    assert call["function"]["name"] == "bash"
    command = json.loads(call["function"]["arguments"])["command"]
    assert command and command in alone["content"]  # the block's text, as the model wrote it
    (entry,) = transcript(gateway)
    assert "fenced shell block" in entry["bridged"]
    assert gateway.summary()["output_tokens"] == answer["body"]["usage"]["completion_tokens"]
