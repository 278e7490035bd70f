"""The run's page as terminal text: the header, the grade, then one line per step (its first
lines of output under it), for ``mlebench show --print`` and output that is not a terminal."""

from __future__ import annotations

from pytest_mlebench.report.run_page.html_page import relative_time
from pytest_mlebench.report.run_page.model import RunPage, Step
from pytest_mlebench.report.run_page.sections import grade_rows, header_facts, usage_line

SHOWN_LINES = 3


def steps_text(page: RunPage, lines_per_part: int = SHOWN_LINES) -> str:
    """The page as text; each step's texts shortened to ``lines_per_part`` lines."""
    record = page.record
    out = [f"run {record.run_id}", *(f"  {fact}" for fact in header_facts(record))]
    if line := usage_line(record):
        out.append(f"  {line}")
    out += [f"  {name}: {value}" for name, value in grade_rows(record)[1:]]
    out.append(f"{len(page.steps)} steps")
    start = page.started
    for step in page.steps:
        out += _step_lines(step, start, lines_per_part)
    if page.log_text:
        out.append("agent log (no times):")
        out += _indented(page.log_text, lines_per_part * 10)
    if record.integrity and record.integrity.flags:
        out += [f"integrity: {flag.severity} {flag.kind}/{flag.rule}: {flag.reason}"
                for flag in record.integrity.flags]  # fmt: skip
    out += [f"note: {note}" for note in page.notes]
    return "\n".join(out) + "\n"


def _step_lines(step: Step, start: float | None, shown: int) -> list[str]:
    mark = "!" if step.failed else " "
    facts = f"  ({', '.join(step.facts)})" if step.facts else ""
    lines = [f"{mark}{relative_time(step.at, start):>9}  {step.kind:<10} {step.title}{facts}"]
    for part in step.parts:
        lines.append(f"{'':12}{part.label}:")
        lines += _indented(part.text, shown)
    return lines


def _indented(text: str, shown: int) -> list[str]:
    lines = text.splitlines()
    kept = [f"{'':14}{line}" for line in lines[:shown]]
    if len(lines) > shown:
        kept.append(f"{'':14}[{len(lines) - shown} more lines]")
    return kept
