"""The run's page as one self-contained HTML file: no script, no request, readable offline.

Everything shown that came from the sandbox (the agent's prompts, answers, commands, outputs,
log lines, file names) is escaped; the page also carries a Content-Security-Policy that allows
no script and no network load at all, so a string the escaping missed still cannot run. Long
texts fold into ``<details>``; the page is built by joining strings, one pass over the steps.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from html import escape
from typing import Any

from pytest_mlebench.report.run_page.model import Part, RunPage, Step, SubmissionCopy
from pytest_mlebench.report.run_page.sections import (
    grade_rows,
    header_facts,
    resource_rows,
    usage_line,
)

POLICY = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
FOLD_CHARS = 400
FOLD_LINES = 6
STYLE = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px;
color:#1d2228;max-width:1200px}
h1{font-size:22px;margin-bottom:4px}h2{font-size:18px;margin-top:28px}
.meta{color:#59636e;font-size:13px}
table{border-collapse:collapse;margin:8px 0 16px;font-size:13px}
th,td{border:1px solid #d0d7de;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#f3f5f7}
.step{border-left:4px solid #d0d7de;padding:2px 8px;margin:4px 0;content-visibility:auto;
contain-intrinsic-size:auto 48px}
.step.fail{border-left-color:#d1242f;background:#fff5f5}
.k-llm{border-left-color:#8250df}.k-command{border-left-color:#1a7f37}
.k-node{border-left-color:#0969da}.k-validation{border-left-color:#bf8700}
.t{color:#59636e;font-variant-numeric:tabular-nums;display:inline-block;min-width:64px}
.kind{font-size:11px;text-transform:uppercase;color:#59636e;display:inline-block;min-width:72px}
.facts{color:#59636e;font-size:12px;margin-left:8px}
pre{white-space:pre-wrap;word-break:break-word;background:#f6f8fa;padding:6px;margin:4px 0;
font-size:12px}
details>summary{cursor:pointer;font-size:12px;color:#0969da}
.label{font-size:11px;color:#59636e;margin-top:2px}
.medal{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px}
.medal-gold{background:#f2d16b}.medal-silver{background:#d5dadd}.medal-bronze{background:#e0a878}
.medal-none{background:#eef0f2;color:#59636e}
.flag{display:inline-block;padding:0 6px;border-radius:8px;font-size:12px}
.flag-high{background:#f8d0cc}.flag-medium{background:#fbe6b0}.flag-low,.flag-info{background:#e6ecf1}
"""


def render_run_page(page: RunPage) -> str:
    """The whole HTML page of ``page``."""
    record = page.record
    title = f"Run {record.run_id}"
    body = [
        f"<h1>{escape(title)}</h1>",
        '<p class="meta">' + " · ".join(escape(f) for f in header_facts(record)) + "</p>",
        *([f'<p class="meta">{escape(line)}</p>'] if (line := usage_line(record)) else []),
        "<h2>Grade</h2>",
        _table(grade_rows(record)),
        copies_html(page.submission_copies),
        steps_html(page),
        files_html(page),
        integrity_html(record.integrity.to_dict() if record.integrity else None),
        "<h2>Resources</h2>",
        _table(resource_rows(record)),
        processes_html(page.processes),
        *(f'<p class="meta">{escape(note)}</p>' for note in page.notes),
    ]
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f'<meta http-equiv="Content-Security-Policy" content="{POLICY}">'
        f"<title>{escape(title)}</title><style>{STYLE}</style></head><body>"
        + "".join(body)
        + "</body></html>\n"
    )


def steps_html(page: RunPage) -> str:
    """The steps in order, each with its time into the run, kind, title, figures and texts."""
    counts: dict[str, int] = {}
    for step in page.steps:
        counts[step.kind] = counts.get(step.kind, 0) + 1
    summary = ", ".join(f"{n} {kind}" for kind, n in counts.items()) or "none recorded"
    start = page.started
    rows = [_step_html(step, start) for step in page.steps]
    log = ""
    if page.log_text:
        log = "<h3>Agent log</h3>" + _part_html(Part("agent.log (its lines carry no times)",
                                                     page.log_text))  # fmt: skip
    return f'<h2>Steps</h2><p class="meta">{len(page.steps)} steps: {escape(summary)}</p>' + (
        "".join(rows) + log
    )


def _step_html(step: Step, start: float | None) -> str:
    css = f"step k-{step.kind}" + (" fail" if step.failed else "")
    facts = f'<span class="facts">{escape(" · ".join(step.facts))}</span>' if step.facts else ""
    return (
        f'<div class="{css}"><span class="t">{relative_time(step.at, start)}</span>'
        f'<span class="kind">{step.kind}</span><b>{escape(step.title)}</b>{facts}'
        + "".join(_part_html(part) for part in step.parts)
        + "</div>"
    )


def _part_html(part: Part) -> str:
    text = escape(part.text)
    lines = part.text.count("\n") + 1
    if len(part.text) <= FOLD_CHARS and lines <= FOLD_LINES:
        return f'<div class="label">{escape(part.label)}</div><pre>{text}</pre>'
    return (
        f"<details><summary>{escape(part.label)} ({lines} lines, {len(part.text)} characters)"
        f"</summary><pre>{text}</pre></details>"
    )


def relative_time(at: float | None, start: float | None) -> str:
    """``+1:05`` (minutes and seconds into the run), ``+1:02:03`` past an hour; ``–`` when
    either time is unknown."""
    if at is None or start is None:
        return "–"
    seconds = at - start
    sign = "-" if seconds < 0 else "+"
    minutes, secs = divmod(int(abs(seconds)), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{sign}{hours}:{minutes:02}:{secs:02}" if hours else f"{sign}{minutes}:{secs:02}"


def copies_html(copies: Sequence[SubmissionCopy]) -> str:
    """The submission copies on a timeline of agent time with their scores (``–``: invalid);
    nothing when the run has none."""
    if not copies:
        return ""
    rows = [("agent time", "score", "medal")]
    rows += [(relative_time(c.at, 0.0), "–" if c.score is None else f"{c.score:.5g}",
              c.medal or "no medal") for c in copies]  # fmt: skip
    return "<h2>Submission copies</h2>" + _table(rows)


def files_html(page: RunPage) -> str:
    """The files the run left, oldest change first, and what the copy-out left out."""
    rows = [("file", "bytes", "changed")]
    rows += [(f.path, "–" if f.size is None else str(f.size), relative_time(f.at, page.started))
             for f in page.files]  # fmt: skip
    copy_out = page.copy_out
    note = ""
    if copy_out:
        omitted = copy_out.get("omitted_count") or 0
        note = (
            f'<p class="meta">copy-out: {copy_out.get("entries", "?")} entries, '
            f"{copy_out.get('written_bytes', '?')} bytes; {omitted} left out"
            + (f" ({escape(str(copy_out.get('capped')))})" if copy_out.get("capped") else "")
            + "</p>"
        )
    return (
        "<h2>Files written</h2>" + (_table(rows) if page.files else "<p>none recorded</p>") + note
    )


def integrity_html(report: dict[str, Any] | None) -> str:
    """Each integrity finding with its evidence, then what each check did."""
    if report is None:
        return "<h2>Integrity</h2><p>not checked</p>"
    parts = ["<h2>Integrity</h2>"]
    if report.get("medal_withheld"):
        parts.append(f"<p><b>medal withheld</b> ({escape(str(report.get('earned_medal')))})</p>")
    for flag in report.get("flags") or ():
        severity = escape(str(flag.get("severity")))
        parts.append(
            f'<div class="step fail"><span class="flag flag-{severity}">{severity}</span> '
            f"<b>{escape(str(flag.get('kind')))}/{escape(str(flag.get('rule')))}</b> "
            f"{escape(str(flag.get('reason')))}"
            + _part_html(Part("evidence", json.dumps(flag.get("evidence"), indent=1)))
            + "</div>"
        )
    if not report.get("flags"):
        parts.append("<p>no findings</p>")
    checks = report.get("checks") or {}
    parts.append(_table([("check", "result"), *((k, str(v)) for k, v in checks.items())]))
    return "".join(parts)


def processes_html(processes: Sequence[dict[str, Any]]) -> str:
    """The process audit: each command line and when it was seen (seconds into the run)."""
    if not processes:
        return ""
    rows = [("command line", "first seen (s)", "last seen (s)", "samples")]
    rows += [(str(p.get("command", "")), str(p.get("first_seen", "")), str(p.get("last_seen", "")),
              str(p.get("samples", ""))) for p in processes]  # fmt: skip
    return "<h3>Processes seen</h3>" + _table(rows)


def _table(rows: Iterable[Sequence[str]]) -> str:
    """A table whose first row is the header; every cell is escaped."""
    cells = []
    for number, row in enumerate(rows):
        tag = "th" if number == 0 else "td"
        cells.append("<tr>" + "".join(f"<{tag}>{escape(c)}</{tag}>" for c in row) + "</tr>")
    return "<table>" + "".join(cells) + "</table>"
