"""The LLM turns of a run, from the gateway's transcript (``<run dir>/gateway.jsonl``).

One step per call: what was new in the prompt (the messages after the model's last answer, so a
long conversation is not repeated on every turn; the first turn shows all of it), the answer
(text and tool calls, from a whole JSON answer or a streamed one's events), tokens, cost,
latency and status. Chat completions, the Responses API and Anthropic's messages are read; any
other body is shown as JSON. The transcript's format is :mod:`pytest_mlebench.gateway.transcript`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pytest_mlebench.report.run_page.model import Part, Step, epoch_of
from pytest_mlebench.report.run_page.reading import bounded_lines, cut

TRANSCRIPT = "gateway.jsonl"


def llm_steps(path: Path, notes: list[str]) -> Iterator[Step]:
    """A step per transcript line; a line that is not JSON is noted in ``notes`` and skipped."""
    for number, line in enumerate(bounded_lines(path), start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            why = "a torn write, or a line over the bound"
            notes.append(f"{path.name} line {number} is not JSON ({why}); skipped")
            continue
        if isinstance(entry, dict):
            yield llm_step(entry)


def llm_step(entry: dict[str, Any]) -> Step:
    """The step of one transcript entry."""
    status = entry.get("status")
    error = entry.get("error")
    parts = [Part("prompt", cut(prompt_text(entry.get("request"))))]
    answer = answer_text(entry.get("response"))
    if answer:
        parts.append(Part("answer", cut(answer)))
    if error:
        parts.append(Part("error", cut(json.dumps(error, indent=1, default=str))))
    response = entry.get("response")
    answer_id = response.get("id") if isinstance(response, dict) else None
    return Step(
        "llm",
        epoch_of(entry.get("time")),
        f"{entry.get('method', '?')} {entry.get('path', '?')} {entry.get('model') or ''}".strip(),
        call_facts(entry),
        tuple(parts),
        failed=bool(error) or (isinstance(status, int) and status >= 400),
        answer_id=answer_id if isinstance(answer_id, str) else None,
    )


def call_facts(entry: dict[str, Any]) -> tuple[str, ...]:
    """Status, tokens in and out, cost and latency of a call, where the entry has them."""
    usage = entry.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    facts = [f"status {entry['status']}"] if entry.get("status") is not None else []
    if usage.get("input_tokens") is not None or usage.get("output_tokens") is not None:
        facts.append(f"{usage.get('input_tokens', 0)} in / {usage.get('output_tokens', 0)} out")
    if isinstance(entry.get("cost_usd"), int | float):
        facts.append(f"${entry['cost_usd']:.6f}")
    if isinstance(entry.get("latency_seconds"), int | float):
        facts.append(f"{entry['latency_seconds']:.2f} s")
    if entry.get("bridged"):
        facts.append(f"bridged: {entry['bridged']}")
    return tuple(facts)


def prompt_text(request: Any) -> str:
    """What the call added to the conversation: the messages after the last answer in it."""
    if not isinstance(request, dict):
        return _plain(request)
    messages = request.get("messages")
    if not isinstance(messages, list):
        messages = request.get("input")
    if isinstance(messages, str):
        return messages
    if not isinstance(messages, list):
        return _plain(request)
    answered = [i for i, m in enumerate(messages) if _role(m) == "assistant"]
    new = messages[answered[-1] + 1 :] if answered else messages
    head = []
    if not answered:
        head = [f"[system]\n{_content(request[k])}" for k in ("system", "instructions")
                if request.get(k)]  # fmt: skip
    earlier = f"[{answered[-1] + 1} earlier message(s) not repeated]\n" if answered else ""
    return earlier + "\n\n".join([*head, *(_message(m) for m in new)])


def answer_text(response: Any) -> str:
    """The model's answer: its text and tool calls (a streamed answer's events joined)."""
    if response is None:
        return ""
    if isinstance(response, str):
        return _streamed(response)
    if not isinstance(response, dict):
        return _plain(response)
    if isinstance(response.get("choices"), list):
        return "\n\n".join(_message(c.get("message", c)) for c in response["choices"]
                           if isinstance(c, dict))  # fmt: skip
    if isinstance(response.get("output"), list):
        return "\n\n".join(_output_item(item) for item in response["output"])
    if isinstance(response.get("content"), list):
        return _content(response["content"])
    return _plain(response)


def _message(message: Any) -> str:
    if not isinstance(message, dict):
        return _plain(message)
    text = _content(message.get("content"))
    calls = [_call(c.get("function", c)) for c in message.get("tool_calls") or ()
             if isinstance(c, dict)]  # fmt: skip
    return "\n".join(filter(None, [f"[{_role(message) or 'message'}]", text, *calls]))


def _role(message: Any) -> str | None:
    return str(message.get("role")) if isinstance(message, dict) and message.get("role") else None


def _content(content: Any) -> str:
    """Text of a message's content: a string, or a list of parts (text, tool use, image)."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return _plain(content)
    texts = []
    for part in content:
        if isinstance(part, str):
            texts.append(part)
        elif isinstance(part, dict) and isinstance(part.get("text"), str):
            texts.append(part["text"])
        elif isinstance(part, dict) and part.get("type") == "tool_use":
            texts.append(_call({"name": part.get("name"), "arguments": part.get("input")}))
        elif isinstance(part, dict) and part.get("type") == "tool_result":
            texts.append(_content(part.get("content")))
        else:
            texts.append(f"[{part.get('type', 'part') if isinstance(part, dict) else 'part'}]")
    return "\n".join(texts)


def _output_item(item: Any) -> str:
    """One item of a Responses API answer's ``output``."""
    if isinstance(item, dict) and item.get("type") == "function_call":
        return _call(item)
    if isinstance(item, dict):
        return _content(item.get("content"))
    return _plain(item)


def _call(function: dict[str, Any]) -> str:
    """``call NAME: ARGUMENTS``, a shell command shown as itself."""
    arguments = function.get("arguments")
    if isinstance(arguments, str):
        try:
            arguments = json.loads(arguments)
        except ValueError:
            pass
    if isinstance(arguments, dict) and isinstance(arguments.get("command"), str):
        shown = arguments["command"]
    else:
        shown = arguments if isinstance(arguments, str) else _plain(arguments)
    return f"[call {function.get('name', '?')}]\n{shown}"


def _streamed(events: str) -> str:
    """The text of a streamed answer: the deltas of its ``data:`` events, in order."""
    pieces: list[str] = []
    for line in events.splitlines():
        if not line.startswith("data:"):
            continue
        try:
            event = json.loads(line[5:])
        except ValueError:
            continue
        if isinstance(event, dict):
            pieces.append(_delta(event))
    return "".join(pieces) or events


def _delta(event: dict[str, Any]) -> str:
    """The text one streamed event adds (chat completions, Responses API, Anthropic)."""
    for choice in event.get("choices") or ():
        delta = choice.get("delta") or {} if isinstance(choice, dict) else {}
        text = delta.get("content") or ""
        for call in delta.get("tool_calls") or ():
            function = call.get("function") or {}
            text += function.get("arguments") or ""
        return str(text)
    if event.get("type") == "response.output_text.delta":
        return str(event.get("delta") or "")
    delta = event.get("delta")
    if isinstance(delta, dict):
        return str(delta.get("text") or delta.get("partial_json") or "")
    return ""


def _plain(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, indent=1, default=str)
