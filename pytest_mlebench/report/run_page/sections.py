"""The run's facts as rows of text for the page and the terminal: who ran what, the grade, the
LLM usage and the resources (the record's fields; the GPU sampler's summary where GPUs were
granted — the record keeps no series over time, so the page shows the summary)."""

from __future__ import annotations

from pytest_mlebench.failure_summary.views import summary_text
from pytest_mlebench.gpu_sampling import usage_text
from pytest_mlebench.integrity.reporting import too_good_of
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.llm_usage import usage_brief

GIB = 1024**3


def header_facts(record: RunRecord) -> list[str]:
    """Competition, agent, seed, outcome (and why), why the agent stopped, sandbox, times."""
    outcome = record.outcome + (f": {record.reason}" if record.reason else "")
    facts = [
        f"{record.kind} {record.subject}",
        f"agent {record.agent}",
        f"seed {record.seed}",
        f"outcome {outcome}",
        f"sandbox {record.sandbox}",
        f"started {record.started_at}",
        f"finished {record.finished_at}",
        f"session {record.session_id}",
    ]
    if record.stop_reason:
        facts.insert(4, f"agent stopped: {record.stop_reason}")
    return facts


def usage_line(record: RunRecord) -> str | None:
    """The gateway's account of the run (calls, tokens, cost, budget), ``None`` without one."""
    brief = usage_brief(record.gateway)
    return None if brief is None else f"LLM usage: {brief}"


def grade_rows(record: RunRecord) -> list[tuple[str, str]]:
    """The grade: submission, validity, score, medal (and a withheld one), percentile, lines."""
    grade = record.grade
    if grade is None:
        kind = "not graded" if record.kind == "competition" else "an engineering task (no grade)"
        return [("grade", ""), ("result", kind), *_why_failed(record)]
    medal: str = record.medal or "no medal"
    if record.medal_withheld:
        medal += f" (earned {record.earned_medal}, withheld by integrity)"
    cleared = record.integrity.clearance if record.integrity else None
    if cleared:
        medal += f" (withheld by integrity, cleared by {cleared.get('by')} at {cleared.get('at')}: "
        medal += f"{cleared.get('reason')})"
    rows = [
        ("grade", ""),
        ("submission", "present" if grade.submission_exists else "missing"),
        ("valid", "yes" if grade.valid_submission else f"no: {grade.invalid_reason}"),
        ("score", "–" if grade.score is None else f"{grade.score:.6g}"),
        ("medal", medal),
        ("percentile", "–" if grade.percentile is None else f"{grade.percentile:.1f}"),
    ]
    too_good = too_good_of(record.integrity.flags) if record.integrity else None
    if too_good:
        rows.append(
            ("too good to be true", f"the leaderboard's best is {too_good['board_best']:g}")
        )
    rows += _why_failed(record)
    if grade.thresholds is not None:
        lines = grade.thresholds
        direction = "lower" if lines.lower_is_better else "higher"
        rows.append(
            (
                "medal lines",
                f"gold {lines.gold:.6g}, silver {lines.silver:.6g}, bronze {lines.bronze:.6g}, "
                f"median {lines.median:.6g} ({direction} is better)",
            )
        )
    if grade.original_differs:
        rows.append(("original grader", f"{grade.original_score} ({grade.original_medal})"))
    return rows


def _why_failed(record: RunRecord) -> list[tuple[str, str]]:
    """The model's failure summary (``--mle-summarize``), or its note; none for other runs."""
    why = summary_text(record.failure_summary)
    if why is None or record.failure_summary is None:
        return []
    return [(f"why it failed ({record.failure_summary.get('model')})", why)]


def resource_rows(record: RunRecord) -> list[tuple[str, str]]:
    """Wall and CPU time, peak memory, exit, limits hit, what was granted and the GPU use."""
    memory = record.peak_memory_bytes
    rows = [
        ("resource", ""),
        ("wall time", "–" if record.wall_seconds is None else f"{record.wall_seconds:.1f} s"),
        ("CPU time", "–" if record.cpu_seconds is None else f"{record.cpu_seconds:.1f} s"),
        ("peak memory", "–" if memory is None else f"{memory / GIB:.2f} GiB"),
        ("exit code", str(record.exit_code)),
        ("time limit", "–" if record.time_limit is None else f"{record.time_limit:g} s"),
        ("timed out", "yes" if record.timed_out else "no"),
        ("killed for memory", "yes" if record.oom_killed else "no"),
        ("granted", ", ".join(f"{k} {v}" for k, v in record.resources.items()) or "–"),
    ]
    gpus = usage_text(record.gpu_usage)
    if gpus:
        rows.append(("GPUs", gpus))
    return rows
