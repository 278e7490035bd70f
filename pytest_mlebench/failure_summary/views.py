"""The failure summaries in the reports: the summary's block, the Markdown and HTML sections.

The summary's text came from a model that read the sandbox's output: it is shown escaped
everywhere (HTML-escaped in the HTML page and in the Markdown, whose renderers pass HTML through,
and with its pipes and line breaks made harmless in a Markdown table). Pure over records or the
summary's JSON.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from pytest_mlebench.records.run_record import RunRecord


def summaries_block(records: Sequence[RunRecord]) -> dict[str, Any] | None:
    """``summary.json``'s ``failure_summaries``: model(s), runs asked, answered, cost and tokens."""
    entries = [r.failure_summary for r in records if r.failure_summary]
    if not entries:
        return None
    return {
        "models": sorted({str(e.get("model")) for e in entries}),
        "runs": len(entries),
        "answered": sum(1 for e in entries if e.get("text")),
        "notes": sum(1 for e in entries if e.get("error")),
        "input_tokens": sum(int(e.get("input_tokens") or 0) for e in entries),
        "output_tokens": sum(int(e.get("output_tokens") or 0) for e in entries),
        "cost_usd": round(sum(float(e.get("cost_usd") or 0.0) for e in entries), 6),
    }


def summary_text(entry: Mapping[str, Any] | None) -> str | None:
    """The words shown for a run: the model's summary, or the note saying why there is none."""
    if not entry:
        return None
    if entry.get("text"):
        return str(entry["text"])
    return f"(no summary: {entry.get('error')})"


def cost_text(block: Mapping[str, Any]) -> str:
    """``3 run(s) summarised by m (2 answered, 1 note): $0.0012, 900 tokens in, 120 out``."""
    return (
        f"{block['runs']} failed run(s) summarised by {', '.join(block['models'])} "
        f"({block['answered']} answered, {block['notes']} note(s)): ${block['cost_usd']:.4f}, "
        f"{block['input_tokens']} tokens in, {block['output_tokens']} out"
    )


def _summarised_runs(summary: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    runs = [run for entry in summary.get("competitions", []) for run in entry.get("runs", [])]
    return [run for run in runs if run.get("failure_summary")]


def _markdown_text(text: str) -> str:
    return escape(" ".join(text.split())).replace("|", "&#124;")


def markdown_lines(summary: Mapping[str, Any]) -> list[str]:
    """``summary.md``'s "Why runs failed" section: one line per summarised run, then the cost."""
    block = summary.get("failure_summaries")
    runs = _summarised_runs(summary)
    if not block or not runs:
        return []
    lines = ["## Why runs failed", ""]
    for run in runs:
        name = _markdown_text(str(run.get("test_id") or run.get("run_id")))
        text = summary_text(run["failure_summary"]) or ""
        lines.append(f"- **{name}** ({run.get('outcome')}): {_markdown_text(text)}")
    return [*lines, "", f"Cost: {escape(cost_text(block))}.", ""]


def html_section(summary: Mapping[str, Any]) -> str:
    """The HTML page's "Why runs failed" section, every text escaped; ``""`` without one."""
    block = summary.get("failure_summaries")
    runs = _summarised_runs(summary)
    if not block or not runs:
        return ""
    items = "".join(
        f"<li><b>{escape(str(run.get('test_id') or run.get('run_id')))}</b> "
        f"({escape(str(run.get('outcome')))}): "
        f"{escape(summary_text(run['failure_summary']) or '')}</li>"
        for run in runs
    )
    return (
        f'<h2>Why runs failed</h2><ul class="failure-summaries">{items}</ul>'
        f'<p class="meta">{escape(cost_text(block))}</p>'
    )
