"""What an upstream can enforce, and how the gateway bridges what it cannot: a forced tool call.

A chat request may force one function call (``tool_choice={"type": "function", "function":
{"name": N}}``; aideml's review step does). OpenAI honours it (``native``). llama.cpp's server
ignores such a ``tool_choice``, so a model writes the call as prose and the agent cannot read it.
For an upstream declared ``schema``, the gateway sends instead what that server does enforce: a
``response_format`` JSON schema made from the function's parameters (grammar-constrained
decoding), and wraps the JSON answer back as the tool call the agent asked for. Streamed requests
pass unchanged (the bridge needs the whole answer).

The local model server (``mlebench model serve``) is the upstream named ``local[:PORT]``; it is
declared ``schema``. ``docs/agents.md`` describes the flag.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.values.providers import LOCAL_HOST, LOCAL_NAME, LOCAL_PORT

NATIVE = "native"
SCHEMA = "schema"
FORCED_TOOL_CALL = (NATIVE, SCHEMA)


@dataclass(frozen=True)
class NamedUpstream:
    """An upstream known by name: its base URL and how it takes a forced tool call."""

    base_url: str
    forced_tool_call: str


def named_upstream(value: str) -> NamedUpstream | None:
    """``local`` or ``local:PORT``: the local model server on loopback; else ``None``."""
    match = LOCAL_NAME.fullmatch(value.strip())
    if match is None:
        return None
    port = int(match.group(1) or LOCAL_PORT)
    return NamedUpstream(f"http://{LOCAL_HOST}:{port}/v1", SCHEMA)


def forced_function(payload: Any) -> dict[str, Any] | None:
    """The function a non-streamed chat ``payload`` forces with ``tool_choice``, else ``None``."""
    if not isinstance(payload, dict) or payload.get("stream"):
        return None
    choice = payload.get("tool_choice")
    if not isinstance(choice, dict) or choice.get("type") != "function":
        return None
    name = (choice.get("function") or {}).get("name")
    for tool in payload.get("tools") or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and function.get("name") == name:
            return function
    return None


def as_schema_request(payload: dict[str, Any], function: dict[str, Any]) -> dict[str, Any]:
    """``payload`` with the forced call replaced by a JSON-schema ``response_format``.

    The function's description goes in as a last system line, since the schema alone does not
    say what the arguments are for.
    """
    name = str(function["name"])
    schema = function.get("parameters") or {"type": "object"}
    request = {
        key: value
        for key, value in payload.items()
        if key not in ("tools", "tool_choice", "parallel_tool_calls", "functions", "function_call")
    }
    note = f"Answer only with the arguments of the function {name} as one JSON object."
    if function.get("description"):
        note += f" The function: {function['description']}"
    request["messages"] = [*payload.get("messages", []), {"role": "system", "content": note}]
    request["response_format"] = {
        "type": "json_schema",
        "json_schema": {"name": name, "schema": schema, "strict": True},
    }
    return request


def as_tool_call_answer(body: bytes, name: str) -> bytes:
    """The upstream's JSON answer as the call of ``name`` the agent forced; other bodies as they
    are. The text becomes the call's ``arguments`` as written, valid JSON or not: the agent
    judges what the model said, the gateway does not repair it."""
    try:
        answer = json.loads(body)
    except ValueError:
        return body
    if not isinstance(answer, dict) or not isinstance(answer.get("choices"), list):
        return body
    for choice in answer["choices"]:
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(message, dict):
            continue
        call = {
            "id": "call_" + secrets.token_hex(12),
            "type": "function",
            "function": {"name": name, "arguments": message.get("content") or ""},
        }
        message.update(content=None, tool_calls=[call])
        if choice.get("finish_reason") == "stop":
            choice["finish_reason"] = "tool_calls"
    return json.dumps(answer).encode()
