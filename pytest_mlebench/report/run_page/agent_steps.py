"""The agent's own account of its steps: its trajectory where it writes a structured one, else
the timed lines of its log.

* mini-swe-agent (``logs/mini-swe/trajectory.json``, written after every step by
  ``agents/folders/mini_swe/run_mini_swe.py``): a step per command, with its exit code and
  output, at the time the command ended;
* AIDE (``logs/aide/*/journal.json``, aideml's journal): a step per search node, with its plan,
  code, output, the review's analysis and the metric, at the node's creation;
* any agent's ``agent.log`` (the built-in baseline writes ``2026-12-08 01:54:56,098 ...``): a
  step per line that starts with a time, the untimed lines after it (a traceback, a table)
  folded into it. A log in which no line has a time is not cut into steps; the page shows it
  whole instead.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from pytest_mlebench.report.run_page.model import Part, Step
from pytest_mlebench.report.run_page.reading import bounded_lines, cut, json_file

MINI_SWE_TRAJECTORY = Path("logs") / "mini-swe" / "trajectory.json"
AIDE_JOURNALS = "logs/aide/*/journal.json"
LINE_TIME = re.compile(
    r"^\[?(\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?)\]?\s?"
)
TITLE_CHARS = 160


def trajectory_steps(run_dir: Path) -> list[Step]:
    """The commands of mini-swe-agent's trajectory and the nodes of AIDE's journals, in order."""
    steps = mini_swe_steps(json_file(run_dir / MINI_SWE_TRAJECTORY))
    for journal in sorted(run_dir.glob(AIDE_JOURNALS)):
        steps += aide_steps(json_file(journal))
    return steps


def mini_swe_steps(trajectory: Any) -> list[Step]:
    """A step per command of a mini-swe-agent trajectory (its tool-call format)."""
    if not isinstance(trajectory, dict) or not isinstance(trajectory.get("messages"), list):
        return []
    messages = [m for m in trajectory["messages"] if isinstance(m, dict)]
    results = {m.get("tool_call_id"): m for m in messages if m.get("role") == "tool"}
    steps = []
    for message in messages:
        extra = message.get("extra")
        if message.get("role") != "assistant" or not isinstance(extra, dict):
            continue
        response = extra.get("response")
        answer_id = response.get("id") if isinstance(response, dict) else None
        for action in extra.get("actions") or ():
            if isinstance(action, dict):
                result = results.get(action.get("tool_call_id"))
                steps.append(_command_step(action, result, answer_id))
    return steps


def _command_step(action: dict[str, Any], result: dict[str, Any] | None, answer_id: Any) -> Step:
    command = str(action.get("command", ""))
    extra = (result or {}).get("extra")
    extra = extra if isinstance(extra, dict) else {}
    code = extra.get("returncode")
    output = extra.get("raw_output", (result or {}).get("content", ""))
    parts = [Part("command", cut(command))] if "\n" in command or len(command) > TITLE_CHARS else []
    if output:
        parts.append(Part("output", cut(str(output))))
    if extra.get("exception_info"):
        parts.append(Part("exception", cut(str(extra["exception_info"]))))
    at = extra.get("timestamp")
    return Step(
        "command",
        float(at) if isinstance(at, int | float) else None,
        _first_line(command),
        (f"exit {code}",) if code is not None else ("no result",),
        tuple(parts),
        failed=code not in (0, None) or bool(extra.get("exception_info")),
        answer_id=answer_id if isinstance(answer_id, str) else None,
    )


def aide_steps(journal: Any) -> list[Step]:
    """A step per node of an AIDE journal: plan, code, output, analysis and metric."""
    if not isinstance(journal, dict) or not isinstance(journal.get("nodes"), list):
        return []
    return [_node_step(node) for node in journal["nodes"] if isinstance(node, dict)]


def _node_step(node: dict[str, Any]) -> Step:
    metric = node.get("metric")
    value = metric.get("value") if isinstance(metric, dict) else None
    buggy = bool(node.get("is_buggy"))
    outcome = "buggy" if buggy else f"metric {value}"
    facts = [outcome]
    if isinstance(node.get("exec_time"), int | float):
        facts.append(f"ran {node['exec_time']:.1f} s")
    if node.get("exc_type"):
        facts.append(str(node["exc_type"]))
    term_out = node.get("_term_out")
    output = "".join(map(str, term_out)) if isinstance(term_out, list) else str(term_out or "")
    named = (("plan", node.get("plan")), ("code", node.get("code")), ("output", output),
             ("analysis", node.get("analysis")))  # fmt: skip
    ctime = node.get("ctime")
    return Step(
        "node",
        float(ctime) if isinstance(ctime, int | float) else None,
        f"node {node.get('step', '?')}: {_first_line(str(node.get('plan') or 'no plan'))}",
        tuple(facts),
        tuple(Part(label, cut(str(text))) for label, text in named if text),
        failed=buggy,
    )


def log_steps(path: Path) -> tuple[list[Step], str | None]:
    """The log's timed lines as steps, or (when no line has a time) the log's whole text."""
    steps: list[Step] = []
    pending: list[str] = []  # untimed lines, folded into the step before them
    lines: list[str] = []
    for line in bounded_lines(path):
        lines.append(line)
        at = line_time(line)
        if at is None:
            pending.append(line)
            continue
        _fold(steps, pending)
        steps.append(Step("log", at, _first_line(LINE_TIME.sub("", line, count=1))))
    if not steps:
        return [], "\n".join(lines) if lines else None
    _fold(steps, pending)
    return steps, None


def _fold(steps: list[Step], pending: list[str]) -> None:
    """Fold the untimed ``pending`` lines into the last step (or a first, untimed one)."""
    if not pending:
        return
    text = cut("\n".join(pending))
    if steps:
        last = steps[-1]
        steps[-1] = Step(last.kind, last.at, last.title, last.facts, (Part("more lines", text),))
    else:
        steps.append(Step("log", None, _first_line(pending[0]), (), (Part("lines", text),)))
    pending.clear()


def line_time(line: str) -> float | None:
    """The time a log line starts with (naive times taken as UTC), else ``None``."""
    match = LINE_TIME.match(line)
    if match is None:
        return None
    try:
        moment = datetime.fromisoformat(match.group(1).replace(",", "."))
    except ValueError:
        return None
    return (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).timestamp()


def _first_line(text: str) -> str:
    line = text.strip().split("\n", 1)[0]
    return line if len(line) <= TITLE_CHARS else line[: TITLE_CHARS - 1] + "…"
