"""One path from run records to every report: merge → summary → gate → writers.

The session end (:mod:`~pytest_mlebench.report.finish`) and ``mlebench report``
(:mod:`~pytest_mlebench.report.command`) both go this way: :func:`report_from_records` merges the
records (read once by the caller) and builds the summary once; :func:`compare_with_baseline`
adds the gate's verdict; :func:`publish` hands the finished
:class:`~pytest_mlebench.report.session_report.SessionReport` to each
:class:`~pytest_mlebench.report.writers.ReportWriter` in turn and collects their lines.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from pathlib import Path

from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.records.verdict import Flag
from pytest_mlebench.report.baseline_gate import run_gate
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.session_report import GateSettings, SessionReport, Summary
from pytest_mlebench.report.summary_json import build_summary, load_summary
from pytest_mlebench.report.writers import ReportWriter


def report_from_records(
    records: Iterable[RunRecord],
    out_dir: Path,
    *,
    sources: Sequence[str],
    seeds: int | None = None,
    session_flags: Sequence[Flag] = (),
) -> SessionReport:
    """Merge ``records`` (one per run kept) and summarise them, once.

    Args:
        records: Every record to report, from any number of results files.
        out_dir: Where the report's files go.
        sources: The results files the records came from (recorded in the summary).
        seeds: Seeds each competition should have (for the missing-seeds finding).
        session_flags: Cross-run integrity flags of the session (the summary's
            ``integrity.session_flags``).
    """
    merged = replace(merge_records(records, seeds), sources=tuple(sources))
    layout = build_summary(merged, session_flags=session_flags)
    return SessionReport(
        summary=Summary.from_layout(layout),
        out_dir=out_dir,
        records=merged.records,
        merge_findings=tuple(merged.findings()),
    )


def report_from_summary(path: Path, out_dir: Path, seeds: int | None = None) -> SessionReport:
    """A report of one ``summary.json`` (or results file) read as it is: nothing is rebuilt."""
    return SessionReport(
        summary=Summary.from_layout(load_summary(path, seeds)), out_dir=out_dir, built=False
    )


def read_baseline(path: Path, seeds: int | None = None) -> Summary:
    """The baseline's summary (a ``summary.json`` or a results file summarised now).

    Raises:
        ConfigError: When the file is missing or is neither kind.
    """
    return Summary.from_layout(load_summary(path, seeds))


def compare_with_baseline(
    report: SessionReport, baseline_path: Path, name: str, settings: GateSettings
) -> SessionReport:
    """``report`` judged against the baseline at ``baseline_path`` (shown as ``name``).

    A baseline that cannot be read makes the gate fail with the reason, never a traceback.
    """
    try:
        baseline = read_baseline(baseline_path)
    except MLEBenchError as exc:
        return report.unjudged(f"cannot read the baseline: {exc}")
    gate = run_gate(
        baseline.to_dict(),
        report.summary.to_dict(),
        baseline=name,
        mode=settings.mode,
        alpha=settings.alpha,
        max_drop=settings.max_drop,
        max_cost_increase=settings.max_cost_increase,
        allow_different=settings.allow_different,
    )
    return report.judged(gate, baseline)


def publish(report: SessionReport, writers: Iterable[ReportWriter]) -> list[str]:
    """Hand ``report`` to each writer in turn; their lines for the terminal, in that order."""
    lines: list[str] = []
    for writer in writers:
        lines += writer.write(report)
    return lines
