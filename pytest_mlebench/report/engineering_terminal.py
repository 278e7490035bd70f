"""The terminal's lines for engineering tasks: one per run, a task table, the teaching cards.

At the end of a session the terminal shows, beside the competitions' medal table, a task table
(each seed's outcome and task score, the pass count, the mean score), the agent's mean per
dimension, and for every check that did not fully pass its teaching card — why the check
matters and how to fix it — grouped by dimension, so a failed run says what to do next.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence

from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.check_cards import CheckCard
from pytest_mlebench.report.engineering_stats import (
    DIMENSIONS,
    engineering_section,
    failed_checks,
    scored,
)

MAX_CARDS = 30  # teaching cards printed; the rest are in summary.md and the HTML page


def score_text(record: RunRecord) -> str:
    """``82.5`` (the task score in 0-100), or ``-`` for a run that was not verified."""
    block = scored(record)
    return "-" if block is None else f"{100 * float(block['score']):.1f}"


def task_run_line(record: RunRecord, shown_id: str) -> str:
    """One finished run of a task: outcome, task score, time, and the reason when not passed."""
    wall = "-" if record.wall_seconds is None else f"{record.wall_seconds:.1f}s"
    line = f"{shown_id:<28} {record.outcome:<7} task score {score_text(record):<6} time {wall:<8}"
    if record.timed_out:
        line += " TIMEOUT"
    if record.reason and record.outcome != "passed":
        line += f"  ({record.reason})"
    return line


def task_table(records: Sequence[RunRecord], shown_id: Callable[[RunRecord], str]) -> list[str]:
    """The task table, the dimension means per agent, then the teaching cards."""
    if not records:
        return []
    rows: dict[tuple[str, str], list[RunRecord]] = defaultdict(list)
    for record in records:
        rows[(record.agent, record.competition_id)].append(record)
    agents = sorted({agent for agent, _ in rows})
    lines = ["engineering tasks:"]
    for (agent, task), runs in sorted(rows.items()):
        runs.sort(key=lambda r: r.seed)
        cells = "  ".join(f"s{r.seed} {r.outcome:<7} {score_text(r):>5}" for r in runs)
        passed = sum(1 for r in runs if r.outcome == "passed")
        name = task if len(agents) == 1 else f"{task} ({agent})"
        lines.append(f"  {name:<32} {cells}  passed {passed}/{len(runs)}")
    for agent in agents:
        section = engineering_section([r for r in records if r.agent == agent]) or {}
        score = (section.get("score") or {}).get("mean")
        dims = section.get("dimensions") or {}
        shown = ", ".join(
            f"{name} {dims[name]['mean']:.1f}"
            for name in DIMENSIONS
            if (dims.get(name) or {}).get("mean") is not None
        )
        prefix = "" if len(agents) == 1 else f"{agent} "
        total = "-" if score is None else f"{score:.1f}"
        rate = section.get("pass_rate")
        lines.append(
            f"  {prefix}overall: {section.get('tasks', 0)} tasks, passed "
            f"{'-' if rate is None else f'{rate:.1f} %'}, task score {total}"
            + (f"; {shown}" if shown else "")
        )
    lines += card_lines(records, shown_id)
    return lines


def card_lines(records: Sequence[RunRecord], shown_id: Callable[[RunRecord], str]) -> list[str]:
    """The failed checks' teaching cards, grouped by dimension (at most :data:`MAX_CARDS`)."""
    by_dimension: dict[str, list[str]] = defaultdict(list)
    for record in records:
        for check in failed_checks(record):
            shown = CheckCard.of(check, shown_id(record)).text()
            by_dimension[str(check.get("dimension"))].append(f"    {shown}")
    if not by_dimension:
        return []
    order = {name: index for index, name in enumerate(DIMENSIONS)}
    lines = ["failed checks (why, and how to fix):"]
    count = 0
    for dimension in sorted(by_dimension, key=lambda d: (order.get(d, len(order)), d)):
        lines.append(f"  {dimension}:")
        for line in by_dimension[dimension]:
            if count == MAX_CARDS:
                left = sum(len(cards) for cards in by_dimension.values()) - MAX_CARDS
                return [*lines, f"  … {left} more in summary.md and the HTML page"]
            lines.append(line)
            count += 1
    return lines
