"""Tool calls written as text, read back into ``tool_calls`` for an upstream declared ``text``;
and a bridged forced call whose answer cannot be the call (cut, or not JSON) refused with 502.

The answers are in the shapes small coder models on llama.cpp write (the Qwen2.5-Coder family:
``<tool_call>`` tags, a fenced JSON block, a fenced ``bash`` block); they are served by the FAKE
upstream. ``tests/real_model/test_text_tool_calls.py`` runs the bridge against the real server.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.gateway import Gateway, GatewayConfig, Provider, load_price_table
from pytest_mlebench.gateway.capabilities import (
    INVALID_CALL,
    NATIVE,
    SCHEMA,
    TEXT,
    as_text_calls_answer,
    as_tool_call_answer,
)
from pytest_mlebench.gateway.config import gateway_config
from pytest_mlebench.gateway.text_calls import offered_tools, read_text_calls
from pytest_mlebench.gateway.usage import StreamUsage, usage_of
from tests.gateway.conftest import call_through, transcript
from tests.gateway.fake_upstream import FakeUpstream

BASH = {  # mini-swe-agent's one tool
    "name": "bash",
    "description": "Execute a bash command",
    "parameters": {
        "type": "object",
        "properties": {"command": {"type": "string"}},
        "required": ["command"],
    },
}
READ = {
    "name": "read_file",
    "parameters": {
        "type": "object",
        "properties": {"path": {"type": "string"}},
        "required": ["path"],
    },
}
TOOLS = {"bash": BASH}
REQUEST: dict[str, Any] = {
    "model": "m",
    "messages": [{"role": "user", "content": "list the data"}],
    "tools": [{"type": "function", "function": BASH}],
}
LS = {"command": "ls /home/data"}


@pytest.mark.parametrize(
    ("text", "form", "rest"),
    [
        (
            'I will look.\n<tool_call>\n{"name": "bash", "arguments": {"command": "ls /home/data"}}'
            "\n</tool_call>",
            "tool_call tags",
            "I will look.",
        ),
        (
            'Let me list the files.\n```json\n{"name": "bash", "arguments": '
            '{"command": "ls /home/data"}}\n```\nThen I read them.',
            "fenced JSON",
            "Let me list the files.\n\nThen I read them.",
        ),
        (
            '```\n{"name": "bash", "parameters": {"command": "ls /home/data"}}\n```',
            "fenced JSON",
            "",
        ),
        (
            '{"name": "bash", "arguments": "{\\"command\\": \\"ls /home/data\\"}"}',
            "fenced JSON",
            "",
        ),
        (
            '```json\n{"function": {"name": "bash", "arguments": '
            '{"command": "ls /home/data"}}}\n```',
            "fenced JSON",
            "",
        ),
        ("First the data:\n```bash\nls /home/data\n```", "fenced shell block", "First the data:"),
    ],
)
def test_a_call_written_as_text_is_read_back(text: str, form: str, rest: str) -> None:
    found = read_text_calls(text, TOOLS)
    assert found is not None
    assert found.form == form
    assert [(name, json.loads(arguments)) for name, arguments in found.calls] == [("bash", LS)]
    assert found.rest == rest


@pytest.mark.parametrize(
    "text",
    [
        "I think we should list the data first.",
        '```json\n{"name": "rm_all", "arguments": {}}\n```',  # a tool the request did not offer
        '<tool_call>\n{"name": "bash", "arguments": {"command": "ls',  # cut mid-call
        "```bash\nls /home/data",  # a shell block never closed
        '```json\n{"name": "bash", "arguments": [1]}\n```',  # arguments not an object
        "```python\nprint(1)\n```",
    ],
)
def test_text_without_a_whole_call_of_an_offered_tool_gives_none(text: str) -> None:
    assert read_text_calls(text, TOOLS) is None


def test_a_shell_block_is_a_call_only_when_one_tool_takes_one_string() -> None:
    text = "```bash\nls\n```"
    assert read_text_calls(text, {"bash": BASH, "read_file": READ}) is None
    found = read_text_calls(text, {"read_file": READ})
    assert found is not None and found.calls == (("read_file", '{"path": "ls"}'),)


def test_every_tagged_call_is_taken() -> None:
    text = "".join(
        f'<tool_call>{{"name": "bash", "arguments": {{"command": "{c}"}}}}</tool_call>'
        for c in ("ls", "pwd")
    )
    found = read_text_calls(text, TOOLS)
    assert found is not None
    assert [json.loads(a)["command"] for _, a in found.calls] == ["ls", "pwd"]


def test_tool_choice_none_offers_no_tools() -> None:
    assert offered_tools({**REQUEST, "tool_choice": "none"}) == {}
    assert offered_tools(REQUEST) == TOOLS


def chat_answer(content: str, finish_reason: str = "stop") -> bytes:
    return json.dumps(
        {
            "model": "m",
            "choices": [
                {
                    "index": 0,
                    "finish_reason": finish_reason,
                    "message": {"role": "assistant", "content": content},
                }
            ],
            "usage": {"prompt_tokens": 9, "completion_tokens": 4},
        }
    ).encode()


def test_the_answer_carries_the_calls_and_the_text_around_them() -> None:
    bridged = as_text_calls_answer(chat_answer("Look:\n```bash\nls /home/data\n```"), TOOLS)
    answer = json.loads(bridged.body)
    choice = answer["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] == "Look:"
    (call,) = choice["message"]["tool_calls"]
    assert call["id"].startswith("call_") and call["type"] == "function"
    assert (call["function"]["name"], json.loads(call["function"]["arguments"])) == ("bash", LS)
    assert "fenced shell block" in str(bridged.note)
    assert answer["usage"] == {"prompt_tokens": 9, "completion_tokens": 4}


def test_an_answer_with_no_call_in_its_text_passes_unchanged() -> None:
    body = chat_answer("I am not sure what to do.")
    assert as_text_calls_answer(body, TOOLS).body == body
    assert as_text_calls_answer(body, TOOLS).note is None


@pytest.mark.parametrize(
    ("content", "finish_reason", "problem"),
    [
        ('{"is_bug": true, "summary": "the prog', "length", "cut at the answer cap"),
        ('{"is_bug": true, "summary": "the prog', "stop", "not valid JSON"),
        ("[true]", "stop", "not one object"),
    ],
)
def test_a_forced_answer_that_cannot_be_the_call_is_a_502(
    content: str, finish_reason: str, problem: str
) -> None:
    bridged = as_tool_call_answer(chat_answer(content, finish_reason), "submit_review")
    assert bridged.status == 502
    error = json.loads(bridged.body)["error"]
    assert error["type"] == error["code"] == INVALID_CALL
    assert problem in error["message"] and problem in str(bridged.error)


def test_the_agent_config_declares_text_tool_calls() -> None:
    section = {"openai": {"base_url": "http://127.0.0.1:11434/v1", "tool_calls": "text"}}
    assert gateway_config(section, {}, "config.yaml").providers["openai"].tool_calls == TEXT
    with pytest.raises(ConfigError, match="tool_calls 'prose' must be native or text"):
        gateway_config({"openai": {"tool_calls": "prose"}}, {}, "config.yaml")


def bridged_run(tmp_path: Path, fake: FakeUpstream, provider: Provider, payload: Any) -> Any:
    gateway = Gateway(GatewayConfig({"openai": provider}), load_price_table(), tmp_path / "g.jsonl")
    gateway.start(tmp_path / "sock" / "g.sock")
    try:
        (answer,) = call_through(gateway, [("/v1/chat/completions", payload)])
    finally:
        gateway.stop()
    return answer, transcript(gateway), gateway.summary()


@pytest.mark.parametrize("capability", [TEXT, NATIVE])
def test_the_gateway_reads_text_calls_only_for_a_text_upstream(
    tmp_path: Path, capability: str
) -> None:
    reply = 'Listing.\n```json\n{"name": "bash", "arguments": {"command": "ls /home/data"}}\n```'
    with FakeUpstream(reply=reply) as fake:
        provider = Provider("openai", fake.url, None, NATIVE, capability)
        answer, (entry,), _ = bridged_run(tmp_path, fake, provider, REQUEST)
        sent = fake.received[0].body
    assert sent == REQUEST  # the request goes upstream as the agent sent it
    message = answer["body"]["choices"][0]["message"]
    if capability == TEXT:
        assert json.loads(message["tool_calls"][0]["function"]["arguments"]) == LS
        assert "fenced JSON" in entry["bridged"]
        assert entry["response"]["choices"][0]["message"]["tool_calls"]  # what the agent got
    else:
        assert message["content"] == reply and not message.get("tool_calls")
        assert "bridged" not in entry


def test_a_cut_forced_answer_reaches_the_agent_as_a_502_and_is_recorded(tmp_path: Path) -> None:
    forced = {
        **REQUEST,
        "tool_choice": {"type": "function", "function": {"name": "bash"}},
    }
    with FakeUpstream(chat=lambda _: json.loads(chat_answer('{"command": "ls', "length"))) as fake:
        provider = Provider("openai", fake.url, None, SCHEMA, TEXT)
        answer, (entry,), summary = bridged_run(tmp_path, fake, provider, forced)
    assert answer["status"] == 502
    assert answer["body"]["error"]["code"] == INVALID_CALL
    assert entry["error"]["type"] == INVALID_CALL and entry["status_to_agent"] == 502
    assert entry["upstream_response"]["choices"][0]["finish_reason"] == "length"
    assert summary["invalid_bridged_calls"] == 1 and summary["truncated_calls"] == 1
    assert (summary["input_tokens"], summary["output_tokens"]) == (9, 4)  # still counted
    assert any("bridged_call_invalid" in m for m in summary["messages"])
    assert any("cut at the answer cap" in m for m in summary["messages"])


@pytest.mark.parametrize(
    ("body", "truncated"),
    [
        ({"choices": [{"finish_reason": "length"}]}, True),
        ({"choices": [{"finish_reason": "stop"}]}, False),
        ({"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"}}, True),
        ({"status": "incomplete", "incomplete_details": {"reason": "content_filter"}}, False),
        ({"type": "message", "stop_reason": "max_tokens"}, True),
        ({"type": "message", "stop_reason": "end_turn"}, False),
    ],
)
def test_an_answer_cut_at_its_cap_is_marked_truncated(
    body: dict[str, Any], truncated: bool
) -> None:
    assert usage_of(body).truncated is truncated


def test_a_stream_cut_at_its_cap_is_marked_truncated() -> None:
    reader = StreamUsage()
    reader.feed(b'data: {"choices": [{"delta": {"content": "x"}}]}\n\n')
    reader.feed(b'data: {"choices": [{"delta": {}, "finish_reason": "length"}]}\n\ndata: [DONE]\n')
    assert reader.finish().truncated is True
    anthropic = StreamUsage()
    anthropic.feed(b'data: {"type": "message_delta", "delta": {"stop_reason": "max_tokens"}, ')
    anthropic.feed(b'"usage": {"output_tokens": 5}}\n')
    assert anthropic.finish().truncated is True


def test_bare_json_calls_each_on_its_line_are_all_taken() -> None:
    # Qwen2.5-Coder-1.5B's answer on diamond-cut, its third call cut off by the answer's end.
    text = (
        '{"name": "bash", "arguments": {"command": "mkdir -p /home/submission"}}\n'
        '{"name": "bash", "arguments": {"command": "cp /home/data/sample_submission.csv '
        '/home/submission/submission.csv"}}\n{"name": "bash'
    )
    found = read_text_calls(text, TOOLS)
    assert found is not None and found.form == "JSON lines"
    commands = [json.loads(arguments)["command"] for _, arguments in found.calls]
    assert commands[0] == "mkdir -p /home/submission" and commands[1].startswith("cp ")
    assert len(commands) == 2 and found.rest == '{"name": "bash'


def test_bare_json_inside_prose_is_taken_only_where_a_line_starts() -> None:
    text = 'Run {"name": "bash", "arguments": {"command": "ls"}} now.'
    assert read_text_calls(text, TOOLS) is None
    found = read_text_calls('Listing:\n  {"name": "bash", "arguments": {"command": "ls"}}', TOOLS)
    assert found is not None and found.rest.strip() == "Listing:"


def test_a_lone_unlabelled_fence_is_a_shell_call_unless_it_is_json() -> None:
    found = read_text_calls("```\nls\n```", TOOLS)
    assert found is not None and found.calls == (("bash", '{"command": "ls"}'),)
    assert read_text_calls('```\n{"a": 1}\n```', TOOLS) is None
    assert read_text_calls("```\nls\n```\n```\npwd\n```", TOOLS) is None  # which one is meant?
