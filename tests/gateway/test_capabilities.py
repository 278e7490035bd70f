"""Upstream capabilities: a forced tool call bridged to a JSON-schema answer for an upstream
declared ``schema`` (the pure pieces, the config, and the gateway in front of the FAKE upstream;
``tests/real_model/test_forced_tool_call.py`` runs it against the real llama.cpp server)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.gateway import Gateway, GatewayConfig, Provider, load_price_table
from pytest_mlebench.gateway.capabilities import (
    NATIVE,
    SCHEMA,
    TEXT,
    as_schema_request,
    as_tool_call_answer,
    forced_function,
)
from pytest_mlebench.gateway.config import gateway_config
from pytest_mlebench.values.providers import parse_upstreams
from tests.gateway.conftest import call_through, transcript
from tests.gateway.fake_upstream import FakeUpstream

REVIEW = {
    "name": "submit_review",
    "description": "Submit a review of the program's output.",
    "parameters": {
        "type": "object",
        "properties": {"is_bug": {"type": "boolean"}, "summary": {"type": "string"}},
        "required": ["is_bug", "summary"],
    },
}
FORCED = {
    "model": "m",
    "messages": [{"role": "user", "content": "review it"}],
    "tools": [{"type": "function", "function": REVIEW}],
    "tool_choice": {"type": "function", "function": {"name": "submit_review"}},
}


@pytest.mark.parametrize(
    ("change", "forced"),
    [
        ({}, True),
        ({"stream": True}, False),  # streamed: passed as it is
        ({"tool_choice": "auto"}, False),
        ({"tool_choice": "required"}, False),
        ({"tool_choice": {"type": "function", "function": {"name": "other"}}}, False),
        ({"tools": []}, False),
    ],
)
def test_which_requests_force_a_function(change: dict[str, Any], forced: bool) -> None:
    found = forced_function({**FORCED, **change})
    assert (found == REVIEW) is forced
    assert (found is None) is not forced


def test_the_schema_request_carries_the_parameters_and_no_tools() -> None:
    request = as_schema_request({**FORCED, "temperature": 0.5}, REVIEW)
    assert "tools" not in request and "tool_choice" not in request
    assert request["temperature"] == 0.5
    assert request["response_format"] == {
        "type": "json_schema",
        "json_schema": {"name": "submit_review", "schema": REVIEW["parameters"], "strict": True},
    }
    assert request["messages"][0] == FORCED["messages"][0]
    assert "submit_review" in request["messages"][-1]["content"]
    assert "review of the program" in request["messages"][-1]["content"]
    assert FORCED["messages"] == [{"role": "user", "content": "review it"}]  # not mutated


def test_the_answer_becomes_the_forced_call_with_usage_kept() -> None:
    body = {
        "model": "m",
        "choices": [
            {
                "index": 0,
                "finish_reason": "stop",
                "message": {"role": "assistant", "content": '{"is_bug": false}'},
            }
        ],
        "usage": {"prompt_tokens": 9, "completion_tokens": 4},
    }
    bridged = as_tool_call_answer(json.dumps(body).encode(), "submit_review")
    assert bridged.status == 200 and bridged.error is None
    answer = json.loads(bridged.body)
    choice = answer["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] is None
    (call,) = choice["message"]["tool_calls"]
    assert call["type"] == "function" and call["id"].startswith("call_")
    assert call["function"] == {"name": "submit_review", "arguments": '{"is_bug": false}'}
    assert answer["usage"] == body["usage"]


@pytest.mark.parametrize("body", [b"not json", b'{"error": {"message": "x"}}', b"[1]"])
def test_other_answers_pass_unchanged(body: bytes) -> None:
    assert as_tool_call_answer(body, "f").body == body


def test_local_names_an_upstream_with_the_schema_and_text_capabilities() -> None:
    upstreams = parse_upstreams(["openai=local:8099"])
    assert upstreams == {"openai": "local:8099"}
    config = GatewayConfig({"openai": Provider("openai", "https://api.openai.com/v1", "k")})
    provider = config.with_upstreams(upstreams).providers["openai"]
    assert provider == Provider("openai", "http://127.0.0.1:8099/v1", "k", SCHEMA, TEXT)
    plain = config.with_upstreams(parse_upstreams(["openai=http://127.0.0.1:9/v1"]))
    assert plain.providers["openai"].forced_tool_call == NATIVE
    assert plain.providers["openai"].tool_calls == NATIVE
    assert GatewayConfig().with_upstreams({"openai": "local"}).providers["openai"].base_url == (
        "http://127.0.0.1:8080/v1"
    )


def test_the_agent_config_declares_the_capability() -> None:
    section = {"openai": {"base_url": "http://127.0.0.1:11434/v1", "forced_tool_call": "schema"}}
    provider = gateway_config(section, {}, "config.yaml").providers["openai"]
    assert provider.forced_tool_call == SCHEMA
    with pytest.raises(ConfigError, match="forced_tool_call 'maybe' must be native or schema"):
        gateway_config({"openai": {"forced_tool_call": "maybe"}}, {}, "config.yaml")


@pytest.mark.parametrize("capability", [SCHEMA, NATIVE])
def test_the_gateway_bridges_only_for_a_schema_upstream(tmp_path: Path, capability: str) -> None:
    reply = '{"is_bug": true, "summary": "crashed"}'
    with FakeUpstream(reply=reply) as fake:
        config = GatewayConfig({"openai": Provider("openai", fake.url, None, capability)})
        gateway = Gateway(config, load_price_table(), tmp_path / "gateway.jsonl")
        gateway.start(tmp_path / "sock" / "g.sock")
        try:
            (answer,) = call_through(gateway, [("/v1/chat/completions", FORCED)])
        finally:
            gateway.stop()
        sent = fake.received[0].body
    assert answer["status"] == 200
    message = answer["body"]["choices"][0]["message"]
    (entry,) = transcript(gateway)
    if capability == SCHEMA:
        assert "tools" not in sent and sent["response_format"]["type"] == "json_schema"
        assert message["tool_calls"][0]["function"]["arguments"] == reply
        assert "submit_review" in entry["bridged"]
        assert entry["request"]["tool_choice"] == FORCED["tool_choice"]  # the agent's request
    else:
        assert sent["tool_choice"] == FORCED["tool_choice"] and "response_format" not in sent
        assert "bridged" not in entry
    assert entry["usage"]["reported"] is True
