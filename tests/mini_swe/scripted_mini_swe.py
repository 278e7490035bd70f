"""Scripted model answers for mini-swe-agent's prompts, served by the FAKE upstream of the gateway
tests.

mini-swe-agent sends every step as a chat completion offering one ``bash`` tool and expects one
tool call back. The script has three steps, chosen by how many commands the conversation already
holds: write the titanic solution of the AIDE tests (paths read from the contract variables) to
``solve.py`` in the working directory and run it, ask the validator about the submission, then
print mini-swe-agent's completion line. Every answer reports the AIDE script's
:data:`~tests.aide.scripted_aide.INPUT_TOKENS` and ``OUTPUT_TOKENS``, so counts are exact.
"""

from __future__ import annotations

import json
from typing import Any

from tests.aide.scripted_aide import CALL_TOKENS, INPUT_TOKENS, OUTPUT_TOKENS, TITANIC_SOLUTION

__all__ = ["CALL_TOKENS", "COMMANDS", "INPUT_TOKENS", "OUTPUT_TOKENS", "answer_mini_swe"]

EDITS = {  # the AIDE script's program, with the contract's paths and two folds (a quicker test)
    '"./input/train.csv"': 'os.path.join(os.environ["DATA_DIR"], "train.csv")',
    '"./input/test.csv"': 'os.path.join(os.environ["DATA_DIR"], "test.csv")',
    '"./working/submission.csv"': 'os.path.join(os.environ["SUBMISSION_DIR"], "submission.csv")',
    "StratifiedKFold(5": "StratifiedKFold(2",
}


def _edited(program: str) -> str:
    for old, new in EDITS.items():
        assert old in program, old
        program = program.replace(old, new)
    return "import os\n" + program.strip()


SOLUTION = _edited(TITANIC_SOLUTION)
COMMANDS = (
    f"cat > solve.py <<'PY'\n{SOLUTION}\nPY\npython3 solve.py",
    '"$VALIDATE_SUBMISSION" "$SUBMISSION_DIR/submission.csv"',
    "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT",
)


def answer_mini_swe(body: dict[str, Any]) -> dict[str, Any]:
    """The chat-completion answer to one of mini-swe-agent's requests: the next bash call."""
    tools = [tool["function"]["name"] for tool in body.get("tools") or []]
    if tools != ["bash"]:
        raise ValueError(f"mini-swe-agent offers exactly its bash tool, not {tools}")
    step = sum(1 for message in body.get("messages", []) if message.get("role") == "tool")
    call = {
        "id": f"call-fake-{step}",
        "type": "function",
        "function": {"name": "bash", "arguments": json.dumps({"command": COMMANDS[step]})},
    }
    message = {"role": "assistant", "content": f"Step {step + 1}.", "tool_calls": [call]}
    return {
        "id": f"chatcmpl-fake-mini-swe-{step}",
        "object": "chat.completion",
        "created": 0,
        "model": body.get("model", ""),
        "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls"}],
        "usage": {
            "prompt_tokens": INPUT_TOKENS,
            "completion_tokens": OUTPUT_TOKENS,
            "total_tokens": CALL_TOKENS,
        },
    }
