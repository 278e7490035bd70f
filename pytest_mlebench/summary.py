"""The terminal summary: one line per finished run of this session, the totals, the medal table,
and for engineering tasks the task table with the teaching cards of failed checks."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from pytest_mlebench.failure_summary.views import cost_text, summaries_block
from pytest_mlebench.integrity.reporting import cleared_text, run_integrity, too_good_text
from pytest_mlebench.integrity.reporting import terminal_lines as integrity_lines
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.engineering_stats import split_kinds
from pytest_mlebench.report.engineering_terminal import task_run_line, task_table
from pytest_mlebench.report.llm_usage import run_usage, usage_brief, usage_lines
from pytest_mlebench.report.terminal import medal_table
from pytest_mlebench.session import MLEBenchSession

ShownId = Callable[[RunRecord], str]


def test_id_of(record: RunRecord) -> str:
    return record.test_id


def run_line(record: RunRecord, shown_id: ShownId = test_id_of) -> str:
    """One run's line; ``shown_id`` names the run (the test's whole id unless told)."""
    if record.kind == "engineering":
        return task_run_line(record, shown_id(record))
    score = record.grade.score if record.grade else None
    score_text = "-" if score is None else f"{score:.5g}"
    medal: str = record.medal or "none"
    if (
        record.grade is not None
        and record.grade.valid_submission
        and not record.grade.has_leaderboard
    ):
        medal = "n/a"
    wall = "-" if record.wall_seconds is None else f"{record.wall_seconds:.1f}s"
    percentile = record.grade.percentile if record.grade else None
    beats = "-" if percentile is None else f"{percentile:.0f}%"
    line = (
        f"{shown_id(record):<28} {record.outcome:<7} score {score_text:<10} medal {medal:<6} "
        f"beats {beats:<5} time {wall:<8}"
    )
    if record.timed_out:
        line += " TIMEOUT"
    if record.failure_class not in (None, "medal", "valid_no_medal"):
        line += f" class {record.failure_class}"
    if record.attempts:
        line += f" ({len(record.attempts) + 1} attempts)"
    llm = usage_brief(run_usage(record))
    if llm is not None:
        line += f" LLM {llm}"
    if record.integrity is not None and record.medal_withheld:
        line += f" WITHHELD (earned {record.integrity.earned_medal})"
    elif record.integrity is not None and record.integrity.flags:
        line += f" FLAGGED ({record.integrity.worst})"
    integrity = run_integrity(record)
    line += f" {too_good_text(integrity)}" if too_good_text(integrity) else cleared_text(integrity)
    if record.reason and record.outcome != "passed":
        line += f"  ({record.reason})"
    elif medal == "n/a":
        line += "  (no leaderboard: no medal)"
    return line


def totals_line(records: Sequence[RunRecord]) -> str:
    """``5 runs: 3 passed, 2 failed; valid 3, above median 2, any medal 1 (25.0 %), 1 excluded
    (infra)``: the medal rate counts the runs that ran and that the harness did not break."""
    outcomes = Counter(r.outcome for r in records)
    graded = [r.grade for r in records if r.grade]
    valid = sum(1 for g in graded if g.valid_submission)
    medals = sum(1 for r in records if r.medal is not None)  # after integrity
    above = sum(1 for g in graded if g.award.above_median)
    counted = sum(1 for r in records if r.counted)
    excluded = sum(1 for r in records if r.ran and not r.counted)
    counts = ", ".join(
        f"{outcomes[o]} {o}" for o in ("passed", "failed", "error", "skipped") if outcomes[o]
    )
    line = (
        f"{len(records)} runs: {counts}; valid {valid}, above median {above}, "
        f"any medal {medals} ({(100 * medals / counted) if counted else 0:.1f} %)"
    )
    return line + (f", {excluded} excluded (infra)" if excluded else "")


def skipped_lines(records: Sequence[RunRecord], data_dir: Path) -> list[str]:
    """Per split, how many competitions were skipped because their data is not prepared."""
    skipped: dict[str, set[str]] = defaultdict(set)
    selected: dict[str, set[str]] = defaultdict(set)
    for record in records:
        for split in record.splits:
            selected[split].add(record.competition_id)
            if record.outcome == "skipped":
                skipped[split].add(record.competition_id)
    return [
        f"split {split}: {len(ids)} of {len(selected[split])} competitions skipped, their data is "
        f"not prepared; prepare them with: mlebench prepare --split {split} --data-dir {data_dir}"
        for split, ids in sorted(skipped.items())
    ]


def terminal_lines(
    mle_session: MLEBenchSession, records: Sequence[RunRecord], labels: Mapping[str, str]
) -> list[str]:
    """The per-run lines, totals, LLM usage, skips, integrity and medal table of ``records``
    (this session's, as read once at its end); ``labels`` names each run by its test's
    parameter id (``digits-s1``), keyed by the test id its record keeps (the reports' own
    labels of the runs they were handed, ``report.hooks.run_labels``)."""

    def display_id(record: RunRecord) -> str:
        return labels.get(record.test_id, record.test_id)

    records = sorted(records, key=lambda r: (r.competition_id, r.seed, r.agent))
    if not records:
        return []
    competitions, tasks = split_kinds(records)
    skipped = skipped_lines(competitions, mle_session.settings.data_dir)
    integrity = integrity_lines(records, display_id)
    summaries = summaries_block(records)
    return [
        *(run_line(r, display_id) for r in records),
        *([totals_line(competitions)] if competitions else []),
        *usage_lines(records),
        *skipped,
        *integrity,
        *([f"failure summaries: {cost_text(summaries)}"] if summaries else []),
        *medal_table(competitions),
        *task_table(tasks, display_id),
    ]
