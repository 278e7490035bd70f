"""What an upstream can enforce, and how the gateway bridges what it cannot: tool calls.

A chat request may force one function call (``tool_choice={"type": "function", "function":
{"name": N}}``; aideml's review step does). OpenAI honours it (``native``). llama.cpp's server
ignores such a ``tool_choice``, so a model writes the call as prose and the agent cannot read it.
For an upstream declared ``schema``, the gateway sends instead what that server does enforce: a
``response_format`` JSON schema made from the function's parameters (grammar-constrained
decoding), and wraps the JSON answer back as the tool call the agent asked for. An answer that
cannot be that call (cut at the answer cap, ``finish_reason: length``, or not one JSON object) is
never handed on as a call with broken arguments: the agent gets HTTP 502 ``bridged_call_invalid``,
an error its SDK treats as a server error (AIDE's backoff asks again, at its own temperature).

Small models on such servers also write the calls of an ordinary (not forced) request as text
(:mod:`.text_calls`). For an upstream declared ``tool_calls: text`` the gateway reads those back
into ``tool_calls``. Both bridges note what they did in the transcript entry's ``bridged``.
Streamed requests pass unchanged (a bridge needs the whole answer).

The local model server (``mlebench model serve``) is the upstream named ``local[:PORT]``; it is
declared ``schema`` and ``text``. ``docs/agents.md`` describes the flags.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.gateway.text_calls import as_tool_calls, read_text_calls
from pytest_mlebench.values.providers import LOCAL_HOST, LOCAL_NAME, LOCAL_PORT

NATIVE = "native"
SCHEMA = "schema"
TEXT = "text"
FORCED_TOOL_CALL = (NATIVE, SCHEMA)
TOOL_CALLS = (NATIVE, TEXT)
INVALID_CALL = "bridged_call_invalid"


@dataclass(frozen=True)
class NamedUpstream:
    """An upstream known by name: its base URL, how it takes a forced tool call and how its
    model answers with tool calls."""

    base_url: str
    forced_tool_call: str
    tool_calls: str = NATIVE


@dataclass(frozen=True)
class Bridged:
    """What a bridge makes of an upstream answer: the status and body the agent gets, what the
    bridge did (``None``: nothing, the answer passes as it came), and the error it answered with."""

    status: int
    body: bytes
    note: str | None = None
    error: dict[str, str] | None = None


def named_upstream(value: str) -> NamedUpstream | None:
    """``local`` or ``local:PORT``: the local model server on loopback; else ``None``."""
    match = LOCAL_NAME.fullmatch(value.strip())
    if match is None:
        return None
    port = int(match.group(1) or LOCAL_PORT)
    return NamedUpstream(f"http://{LOCAL_HOST}:{port}/v1", SCHEMA, TEXT)


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


def as_tool_call_answer(body: bytes, name: str) -> Bridged:
    """The upstream's JSON answer as the call of ``name`` the agent forced; a body that is no
    chat answer passes as it is. An answer cut at the cap or whose text is not one JSON object
    becomes the 502 ``bridged_call_invalid`` error (the module docstring says why)."""
    note = f"forced tool call {name} sent as a JSON-schema response_format"
    answer = _chat_answer(body)
    if answer is None:
        return Bridged(200, body, note)
    for choice in answer["choices"]:
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(message, dict):
            continue
        arguments = message.get("content") or ""
        problem = _invalid_arguments(arguments, choice.get("finish_reason"))
        if problem is not None:
            return _invalid_call(name, problem, note)
        message.update(content=None, tool_calls=as_tool_calls([(name, arguments)]))
        if choice.get("finish_reason") == "stop":
            choice["finish_reason"] = "tool_calls"
    return Bridged(200, json.dumps(answer).encode(), note)


def as_text_calls_answer(body: bytes, tools: dict[str, dict[str, Any]]) -> Bridged:
    """The upstream's answer with tool calls written in its text turned into ``tool_calls``
    (:mod:`.text_calls`); an answer holding none, or already holding calls, passes unchanged."""
    answer = _chat_answer(body)
    if answer is None:
        return Bridged(200, body)
    forms = []
    for choice in answer["choices"]:
        message = choice.get("message") if isinstance(choice, dict) else None
        if not isinstance(message, dict) or message.get("tool_calls"):
            continue
        content = message.get("content")
        found = read_text_calls(content, tools) if isinstance(content, str) else None
        if found is None:
            continue
        forms.append(found.form)
        message.update(content=found.rest or None, tool_calls=as_tool_calls(found.calls))
        if choice.get("finish_reason") == "stop":
            choice["finish_reason"] = "tool_calls"
    if not forms:
        return Bridged(200, body)
    note = f"tool call(s) written as text ({', '.join(sorted(set(forms)))}) sent as tool_calls"
    return Bridged(200, json.dumps(answer).encode(), note)


def _chat_answer(body: bytes) -> dict[str, Any] | None:
    try:
        answer = json.loads(body)
    except ValueError:
        return None
    if not isinstance(answer, dict) or not isinstance(answer.get("choices"), list):
        return None
    return answer


def _invalid_arguments(arguments: str, finish_reason: Any) -> str | None:
    """Why ``arguments`` cannot be handed on as a call's JSON arguments, else ``None``."""
    if finish_reason == "length":
        return "the answer was cut at the answer cap (finish_reason: length)"
    try:
        value = json.loads(arguments)
    except ValueError as exc:
        return f"the answer is not valid JSON ({exc})"
    if not isinstance(value, dict):
        return "the answer is JSON but not one object"
    return None


def _invalid_call(name: str, problem: str, note: str) -> Bridged:
    message = (
        f"mlebench gateway: the upstream's answer to the forced call {name} cannot be that call: "
        f"{problem}; ask again (a new sample), or raise the server's answer cap"
    )
    error = {"message": message, "type": INVALID_CALL, "code": INVALID_CALL, "param": None}
    return Bridged(
        502,
        json.dumps({"error": error}).encode(),
        note,
        {"type": INVALID_CALL, "message": problem},
    )
