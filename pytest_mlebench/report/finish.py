"""End of a session, on the controller: report this session's runs and apply the gates.

The reports describe **this session**: ``summary.json``, ``summary.md``, the HTML page
(``html/index.html``) and ``mlebench/`` are built from the records this session wrote, next to
the results file (``reports/`` by default). A rerun (``--mle-rerun … --mle-from …``) completes the
series it reruns, so its reports cover every record of the results file, merged (the newer
record of a run replaces the older); so does ``pytest --lf`` (:mod:`~pytest_mlebench.rerun_series`),
over the records of the session it reruns. Combining other sessions is an explicit
``mlebench report FILE...`` or ``--compare``. With ``--alluredir``: ``environment.properties`` and
``categories.json`` in the Allure results folder. With ``--mle-baseline`` the comparison
(:mod:`~pytest_mlebench.report.baseline_gate`) runs before ``summary.md`` is written, so the
Markdown carries its verdict.

A session in which every selected run was skipped ran nothing: its records are taken back out of
the results file, no report is written, the medal requirement (when ``--mle-require`` was given)
and the baseline comparison fail, and the session ends with one loud line.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.integrity.crossrun import cross_run_flags
from pytest_mlebench.manifest.writer import ManifestWriter, with_session_manifest
from pytest_mlebench.records.run_record import RunRecord, drop_session
from pytest_mlebench.records.verdict import Flag
from pytest_mlebench.report.allure import load_categories
from pytest_mlebench.report.environment import build_environment
from pytest_mlebench.report.original_rates import medal_rates
from pytest_mlebench.report.pipeline import compare_with_baseline, publish, report_from_records
from pytest_mlebench.report.session_report import GateSettings, SessionReport
from pytest_mlebench.report.writers import (
    HTML_FOLDER,
    AllureSessionWriter,
    HtmlWriter,
    MarkdownWriter,
    MlebenchFilesWriter,
    ReportWriter,
    SessionSummaryWriter,
    SummaryFileWriter,
    VerdictLines,
)
from pytest_mlebench.session import MLEBenchSession

CATEGORIES_TEMPLATE = Path("reports") / "categories.json"


@dataclass(frozen=True)
class SessionEnd:
    """What the session end needs from pytest.

    Attributes:
        rootdir: pytest's rootdir (git commit, categories template).
        allure_dir: The Allure results folder, or ``None`` when Allure is off.
        update_environment: Calls the ``pytest_mlebench_update_environment`` hook.
        require_given: Whether ``--mle-require`` was set (option, environment or ini) rather
            than left at its default.
        extra_writers: The writers of the ``pytest_mlebench_report_writers`` hook, run after
            the built-in ones.
        series: The earlier sessions a ``pytest --lf`` rerun completes
            (:mod:`~pytest_mlebench.rerun_series`).
    """

    rootdir: Path
    allure_dir: Path | None = None
    update_environment: Callable[[dict[str, Any]], None] = lambda environment: None
    require_given: bool = False
    extra_writers: tuple[ReportWriter, ...] = ()
    series: tuple[str, ...] = ()


@dataclass(frozen=True)
class FinishResult:
    """What the session end wrote and decided, for the terminal summary.

    Attributes:
        lines: The lines to show (files written, merge findings, gate verdicts).
        gate_failed: A gate failed: the session's exit status becomes "tests failed".
        alarm: One loud last line (every selected run was skipped), else ``None``.
    """

    lines: tuple[str, ...] = ()
    gate_failed: bool = False
    alarm: str | None = None


def finish_session(
    mle_session: MLEBenchSession, records: Sequence[RunRecord], end: SessionEnd
) -> FinishResult:
    """Everything the controller does at the end of a session.

    Args:
        mle_session: The session state.
        records: Every record of the results file, read once by the caller.
        end: What pytest tells the session end.
    """
    mine = [r for r in records if r.session_id == mle_session.session_id]
    if not mine:  # this session ran no benchmark: leave the files of earlier ones alone
        why = nothing_to_compare(mle_session, "this session ran nothing to compare with")
        return FinishResult(lines=why, gate_failed=bool(why))
    if not any(r.ran for r in mine):
        return nothing_ran(mle_session, mine, end)
    flags, flag_lines = session_integrity(mle_session, mine)
    basis = report_basis(mle_session, records, mine, end.series)
    path = mle_session.settings.results_path
    report = report_from_records(
        basis,
        path.parent,
        sources=(str(path),),
        seeds=mle_session.settings.seeds,
        session_flags=flags,
    )
    report = judge(mle_session, with_session_manifest(report, mle_session))
    lines = flag_lines + publish(report, session_writers(mle_session, report, mine, end))
    return FinishResult(lines=tuple(lines), gate_failed=report.gate_failed)


def report_basis(
    mle_session: MLEBenchSession,
    records: Sequence[RunRecord],
    mine: Sequence[RunRecord],
    series: Sequence[str],
) -> Sequence[RunRecord]:
    """The records the session's reports cover: every record for ``--mle-rerun``, the series'
    for a ``pytest --lf`` rerun (the competitions it left out keep their earlier records), else
    this session's."""
    if mle_session.settings.rerun:
        return records
    if series:
        wanted = {*series, mle_session.session_id}
        return [r for r in records if r.session_id in wanted]
    return mine


def session_writers(
    mle_session: MLEBenchSession, report: SessionReport, mine: Sequence[RunRecord], end: SessionEnd
) -> list[ReportWriter]:
    """The writers of the session end, in the order their lines are shown."""
    writers: list[ReportWriter] = [
        SummaryFileWriter(),
        ManifestWriter(),
        SessionSummaryWriter(mle_session.session_id),
        MlebenchFilesWriter(),
    ]
    if end.allure_dir is not None:
        environment = build_environment(mle_session, end.rootdir, mine)
        rates = medal_rates(mine)
        if rates is not None:  # both rates, where the original MLE-bench's grading differs
            environment["any_medal_rate"] = f"{rates.ours:.1f} %"
            environment["original_any_medal_rate"] = f"{rates.original:.1f} %"
        end.update_environment(environment)
        categories = load_categories(end.rootdir / CATEGORIES_TEMPLATE)
        writers.append(AllureSessionWriter(end.allure_dir, environment, categories))
    html = HtmlWriter(report.out_dir / HTML_FOLDER, remake=True)
    return [*writers, VerdictLines(), MarkdownWriter(), html, *end.extra_writers]


def judge(mle_session: MLEBenchSession, report: SessionReport) -> SessionReport:
    """``report`` compared with ``--mle-baseline`` (mode ``--mle-gate``), when one is set."""
    settings = mle_session.settings
    if settings.baseline is None:
        return report
    gate = GateSettings(
        mode=settings.gate,
        alpha=settings.gate_alpha,
        max_drop=settings.max_drop,
        max_cost_increase=settings.max_cost_increase,
        allow_different=settings.allow_different,
    )
    return compare_with_baseline(report, settings.baseline, shown_path(settings.baseline), gate)


def session_integrity(
    mle_session: MLEBenchSession, records: list[RunRecord]
) -> tuple[tuple[Flag, ...], list[str]]:
    """Cross-run similarity of this session's runs: the flags and their terminal lines."""
    try:
        flags = tuple(cross_run_flags(records, mle_session.integrity.policy))
    except MLEBenchError as exc:
        return (), [f"integrity: cross-run similarity not checked: {exc}"]
    return flags, [f"integrity (session): {flag.summary()}" for flag in flags]


def nothing_ran(
    mle_session: MLEBenchSession, mine: Sequence[RunRecord], end: SessionEnd
) -> FinishResult:
    """Every selected run was skipped: no records kept, no report, the gates fail, one alarm."""
    drop_session(mle_session.settings.results_path, mle_session.session_id)
    lines = list(
        nothing_to_compare(
            mle_session, "no run happened (every selected run was skipped): nothing to compare with"
        )
    )
    if end.require_given and mle_session.settings.require != "none":
        lines.append(
            f"GATE FAILED: --mle-require {mle_session.settings.require}: no run happened (every "
            "selected run was skipped), so none reached it"
        )
    reasons = sorted({record.reason for record in mine if record.reason})
    why = "; ".join(reasons[:2]) + (f"; and {len(reasons) - 2} more" if len(reasons) > 2 else "")
    which = "the one selected run was" if len(mine) == 1 else f"all {len(mine)} selected runs were"
    alarm = (
        f"mlebench: NO RUN HAPPENED: {which} skipped "
        f"({why or 'see the skip reasons above'}); nothing was recorded and no report was written"
    )
    return FinishResult(lines=tuple(lines), gate_failed=bool(lines), alarm=alarm)


def nothing_to_compare(mle_session: MLEBenchSession, why: str) -> tuple[str, ...]:
    """The baseline comparison's failure when this session has nothing to compare."""
    baseline = mle_session.settings.baseline
    return () if baseline is None else (f"GATE FAILED: {why} {baseline}",)


def shown_path(path: Path) -> str:
    """``path`` relative to the working folder when it lies inside it (as a CI log shows it)."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)
