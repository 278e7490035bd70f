"""Tool calls a model wrote as text, read back into OpenAI's ``tool_calls``. Pure.

Small coder models served by llama.cpp (Qwen2.5-Coder among them) often answer a request that
offers ``tools`` with the call in the message text instead of the API's ``tool_calls``, and the
server passes the text on. The formats seen, in the order they are looked for:

* Hermes/Qwen tags: ``<tool_call>{"name": "bash", "arguments": {...}}</tool_call>``;
* a fenced JSON block (```` ```json ````, or unlabelled) holding ``{"name": ..., "arguments": ...}``
  (``parameters`` for ``arguments``, or OpenAI's ``{"function": {...}}`` shape), or the whole
  message being such an object;
* such objects written bare, each starting a line, one or several in a row (Qwen2.5-Coder's
  habit when it plans several commands: each becomes a call; one cut off at the end is left);
* a fenced shell block (```` ```bash ````, ``sh``, ``shell``), read as a call of the one offered
  tool that takes a single required string (mini-swe-agent's ``bash(command)``); an unlabelled
  fence too, when it is the message's only block and holds no JSON.

Only calls of a tool the request offered are taken; anything else leaves the answer as it was, so
the agent sees what the model said and handles it (mini-swe-agent answers with its format error).
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)
FENCED = re.compile(r"```([A-Za-z0-9_+-]*)[ \t]*\n(.*?)```", re.DOTALL)
SHELL_LANGUAGES = frozenset({"bash", "sh", "shell", "console"})
JSON_LANGUAGES = frozenset({"", "json", "tool_call", "javascript"})
LINE_OBJECT = re.compile(r"^[ \t]*\{", re.MULTILINE)


@dataclass(frozen=True)
class TextCalls:
    """The calls found in a message's text, the text left around them and the format's name."""

    calls: tuple[tuple[str, str], ...]  # (function name, JSON arguments)
    rest: str
    form: str


def offered_tools(payload: Any) -> dict[str, dict[str, Any]]:
    """The functions a chat request offers, by name (empty when it offers none or forbids them)."""
    if not isinstance(payload, dict) or payload.get("tool_choice") == "none":
        return {}
    offered: dict[str, dict[str, Any]] = {}
    for tool in payload.get("tools") or []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict) and isinstance(function.get("name"), str):
            offered[function["name"]] = function
    return offered


def read_text_calls(text: str, tools: Mapping[str, Mapping[str, Any]]) -> TextCalls | None:
    """The calls of ``tools`` written in ``text``, or ``None`` when it holds none."""
    if not text or not tools:
        return None
    finders = (("tool_call tags", _tagged), ("fenced JSON", _fenced_json), ("JSON lines", _bare))
    for form, finder in finders:
        found = finder(text, tools)
        if found is not None:
            return TextCalls(found[0], found[1].strip(), form)
    found = _fenced_shell(text, tools)
    if found is not None:
        return TextCalls(found[0], found[1].strip(), "fenced shell block")
    return None


def _tagged(
    text: str, tools: Mapping[str, Mapping[str, Any]]
) -> tuple[tuple[tuple[str, str], ...], str] | None:
    return _collect(TAGGED.finditer(text), text, tools, lambda match: match.group(1))


def _fenced_json(
    text: str, tools: Mapping[str, Mapping[str, Any]]
) -> tuple[tuple[tuple[str, str], ...], str] | None:
    blocks = [m for m in FENCED.finditer(text) if m.group(1).lower() in JSON_LANGUAGES]
    found = _collect(iter(blocks), text, tools, lambda match: match.group(2))
    if found is not None:
        return found
    whole = _call_of(text.strip(), tools)
    return ((whole,), "") if whole is not None else None


def _bare(
    text: str, tools: Mapping[str, Mapping[str, Any]]
) -> tuple[tuple[tuple[str, str], ...], str] | None:
    """Objects written bare, each where a line starts (after its indentation)."""
    decoder = json.JSONDecoder()
    calls: list[tuple[str, str]] = []
    spans: list[tuple[int, int]] = []
    for start in (match.end() - 1 for match in LINE_OBJECT.finditer(text)):
        if spans and start < spans[-1][1]:
            continue  # inside an object already taken
        try:
            _, end = decoder.raw_decode(text, start)
        except ValueError:
            continue
        call = _call_of(text[start:end], tools)
        if call is not None:
            calls.append(call)
            spans.append((start, end))
    rest = text
    for start, end in reversed(spans):
        rest = rest[:start] + rest[end:]
    return (tuple(calls), rest) if calls else None


def _fenced_shell(
    text: str, tools: Mapping[str, Mapping[str, Any]]
) -> tuple[tuple[tuple[str, str], ...], str] | None:
    target = _shell_tool(tools)
    if target is None:
        return None
    name, parameter = target
    fences = list(FENCED.finditer(text))
    blocks = [m for m in fences if m.group(1).lower() in SHELL_LANGUAGES]
    lone = len(fences) == 1 and not fences[0].group(1)
    if not blocks and lone and not fences[0].group(2).lstrip().startswith(("{", "[")):
        blocks = fences  # a lone unlabelled fence that is not JSON
    calls = tuple(
        (name, json.dumps({parameter: block.group(2).strip()}))
        for block in blocks
        if block.group(2).strip()
    )
    return (calls, _without(text, blocks)) if calls else None


def _collect(
    matches: Any, text: str, tools: Mapping[str, Mapping[str, Any]], body: Any
) -> tuple[tuple[tuple[str, str], ...], str] | None:
    taken, calls = [], []
    for match in matches:
        call = _call_of(body(match), tools)
        if call is not None:
            taken.append(match)
            calls.append(call)
    return (tuple(calls), _without(text, taken)) if calls else None


def _call_of(raw: str, tools: Mapping[str, Mapping[str, Any]]) -> tuple[str, str] | None:
    """``(name, JSON arguments)`` of one call written as a JSON object, else ``None``."""
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    if isinstance(value, dict) and isinstance(value.get("function"), dict):
        value = value["function"]  # OpenAI's own shape, written out
    if not isinstance(value, dict) or value.get("name") not in tools:
        return None
    arguments = value.get("arguments", value.get("parameters", {}))
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            return None
    if not isinstance(arguments, dict):
        return None
    return str(value["name"]), json.dumps(arguments)


def _shell_tool(tools: Mapping[str, Mapping[str, Any]]) -> tuple[str, str] | None:
    """The one offered tool taking a single required string, and that parameter's name."""
    fits = []
    for name, function in tools.items():
        parameters = function.get("parameters") or {}
        required = parameters.get("required") or []
        properties = parameters.get("properties") or {}
        if len(required) == 1 and (properties.get(required[0]) or {}).get("type") == "string":
            fits.append((name, str(required[0])))
    return fits[0] if len(fits) == 1 else None


def _without(text: str, matches: Sequence[re.Match[str]]) -> str:
    for match in reversed(matches):
        text = text[: match.start()] + text[match.end() :]
    return text


def as_tool_calls(calls: Sequence[tuple[str, str]]) -> list[dict[str, Any]]:
    """OpenAI ``tool_calls`` entries for ``(name, JSON arguments)`` pairs, with fresh ids."""
    return [
        {
            "id": "call_" + secrets.token_hex(12),
            "type": "function",
            "function": {"name": name, "arguments": arguments},
        }
        for name, arguments in calls
    ]
