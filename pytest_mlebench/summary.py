"""The terminal summary: one line per finished run of this session, the totals, the medal table."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from pytest_mlebench.report.aggregate import medal_of
from pytest_mlebench.report.progress import param_id
from pytest_mlebench.report.terminal import medal_table
from pytest_mlebench.results import RunRecord, read_records
from pytest_mlebench.session import MLEBenchSession


def session_records(session: MLEBenchSession) -> list[RunRecord]:
    """Records this session wrote (all workers), in test-id order."""
    path = session.settings.results_path
    if not path.is_file():
        return []
    records = [r for r in read_records([path]) if r.session_id == session.session_id]
    return sorted(records, key=lambda r: (r.competition_id, r.seed, r.agent))


def display_id(record: RunRecord) -> str:
    """The test's parameter id (``digits`` or ``digits-s1``) from its node id."""
    return param_id(record.test_id) or record.test_id


def run_line(record: RunRecord) -> str:
    score = record.grade.score if record.grade else None
    score_text = "-" if score is None else f"{score:.5g}"
    medal = medal_of(record) or "none"
    wall = "-" if record.wall_seconds is None else f"{record.wall_seconds:.1f}s"
    line = (
        f"{display_id(record):<28} {record.outcome:<7} score {score_text:<10} medal {medal:<6} "
        f"time {wall:<8}"
    )
    if record.timed_out:
        line += " TIMEOUT"
    if record.reason and record.outcome != "passed":
        line += f"  ({record.reason})"
    return line


def totals_line(records: Sequence[RunRecord]) -> str:
    outcomes = Counter(r.outcome for r in records)
    graded = [r.grade for r in records if r.grade]
    valid = sum(1 for g in graded if g.valid_submission)
    medals = sum(1 for g in graded if g.medal is not None)
    above = sum(1 for g in graded if g.award.above_median)
    counts = ", ".join(
        f"{outcomes[o]} {o}" for o in ("passed", "failed", "error", "skipped") if outcomes[o]
    )
    return (
        f"{len(records)} runs: {counts}; valid {valid}, above median {above}, "
        f"any medal {medals} ({(100 * medals / len(records)) if records else 0:.1f} %)"
    )


def terminal_lines(session: MLEBenchSession) -> list[str]:
    records = session_records(session)
    if not records:
        return []
    return [run_line(r) for r in records] + [totals_line(records), *medal_table(records)]
