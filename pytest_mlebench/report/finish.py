"""End of a session, on the controller: write the report files and apply the CI gate.

Files (next to the results file, ``reports/`` by default): ``summary.json``, ``summary.md`` and
``mlebench/grading_report.json`` + ``mlebench/submission.jsonl``, all built from *every* record in
the results file, merged (a rerun's newer records replace older ones for the same run). With
``--alluredir``: ``environment.properties`` and ``categories.json`` in the Allure results folder.
With ``--mle-baseline`` the gate (:mod:`~pytest_mlebench.report.gating`) runs before
``summary.md`` is written, so the Markdown carries its verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.integrity.crossrun import cross_run_flags
from pytest_mlebench.integrity.policy import load_policy
from pytest_mlebench.report.allure import load_categories, write_session_files
from pytest_mlebench.report.environment import build_environment
from pytest_mlebench.report.gating import GateResult, gate_lines, run_gate
from pytest_mlebench.report.markdown import append_step_summary, render_markdown, write_markdown
from pytest_mlebench.report.merge import Merged, merge_records
from pytest_mlebench.report.mlebench_compat import write_mlebench_files
from pytest_mlebench.report.original_rates import medal_rates
from pytest_mlebench.report.profiles import build_profile, profile_text
from pytest_mlebench.report.summary_json import build_summary, load_summary, write_summary
from pytest_mlebench.results import RunRecord, read_records
from pytest_mlebench.session import MLEBenchSession

CATEGORIES_TEMPLATE = Path("reports") / "categories.json"


@dataclass
class FinishResult:
    """What the session end wrote and decided, for the terminal summary."""

    lines: list[str] = field(default_factory=list)
    gate_failed: bool = False
    summary: dict[str, Any] | None = None
    summary_path: Path | None = None
    gate: GateResult | None = None
    gate_error: str | None = None
    baseline: dict[str, Any] | None = None
    gate_lines: list[str] = field(default_factory=list)


def write_reports(mle: MLEBenchSession, result: FinishResult) -> Merged | None:
    """Write ``summary.json`` and the mle-bench files from the whole results file.

    Nothing is written when this session recorded no run (e.g. ``pytest tests/unit``).
    """
    path = mle.settings.results_path
    if not path.is_file():
        return None
    records = list(read_records([path]))
    if not any(r.session_id == mle.session_id for r in records):
        return None  # this session ran no benchmark: leave the files of earlier ones alone
    merged = replace(merge_records(records, mle.settings.seeds), sources=(str(path),))
    result.summary = build_summary(merged)
    mine = [r for r in merged.records if r.session_id == mle.session_id]
    result.summary["integrity"]["session_flags"] = session_integrity(mle, mine, result)
    summary_path = write_summary(path.parent / "summary.json", result.summary)
    result.summary_path = summary_path
    report_path, jsonl_path = write_mlebench_files(path.parent / "mlebench", merged.records)
    overall = [agent["overall"] for agent in result.summary["agents"].values()]
    runs, not_run = sum(o["runs"] for o in overall), sum(o["not_run"] for o in overall)
    sessions = len(result.summary["sessions"])
    result.lines.append(
        f"summary: {summary_path} ({runs} runs, {not_run} not run, from {sessions} session(s) "
        f"in {path})"
    )
    result.lines.append(
        f"mle-bench report: {report_path}; regrade: mlebench grade --submission {jsonl_path} "
        "--output-dir DIR"
    )
    result.lines += [f"merge: {finding}" for finding in merged.findings()]
    return merged


def session_integrity(
    mle: MLEBenchSession, records: list[RunRecord], result: FinishResult
) -> list[dict[str, Any]]:
    """Cross-run similarity of this session's runs: flags for the summary, terminal lines."""
    try:
        policy = load_policy(mle.settings.integrity_policy).with_threshold(mle.settings.similarity)
        flags = cross_run_flags(records, policy)
    except MLEBenchError as exc:
        result.lines.append(f"integrity: cross-run similarity not checked: {exc}")
        return []
    result.lines += [f"integrity (session): {flag.summary()}" for flag in flags]
    return [flag.to_dict() for flag in flags]


def write_allure_files(
    mle: MLEBenchSession,
    rootdir: Path,
    folder: Path,
    merged: Merged | None,
    update_environment: Callable[[dict[str, Any]], None],
) -> str:
    """Write ``environment.properties`` and ``categories.json``; returns a line for the terminal."""
    mine = [r for r in (merged.records if merged else ()) if r.session_id == mle.session_id]
    environment = build_environment(mle, rootdir, mine)
    rates = medal_rates(mine)
    if rates is not None:  # both rates, where the original MLE-bench's grading differs
        environment["any_medal_rate"] = f"{rates.ours:.1f} %"
        environment["original_any_medal_rate"] = f"{rates.original:.1f} %"
    update_environment(environment)
    write_session_files(folder, environment, load_categories(rootdir / CATEGORIES_TEMPLATE))
    return f"allure: environment.properties and categories.json written to {folder}"


def apply_gate(mle: MLEBenchSession, result: FinishResult) -> None:
    """Compare with ``--mle-baseline`` (mode ``--mle-gate``); mark the result failed when the
    gate finds a regression."""
    settings = mle.settings
    baseline = settings.baseline
    if baseline is None:
        return
    try:
        result.baseline = load_summary(baseline)
    except MLEBenchError as exc:
        _gate_error(result, f"cannot read the baseline: {exc}")
        return
    if result.summary is None:
        _gate_error(result, f"this session ran nothing to compare with {baseline}")
        return
    result.gate = run_gate(
        result.baseline,
        result.summary,
        baseline=shown_path(baseline),
        mode=settings.gate,
        alpha=settings.gate_alpha,
        max_drop=settings.max_drop,
        max_cost_increase=settings.max_cost_increase,
    )
    result.gate_lines = gate_lines(result.gate)
    result.gate_failed = not result.gate.ok


def shown_path(path: Path) -> str:
    """``path`` relative to the working folder when it lies inside it (as a CI log shows it)."""
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


def _gate_error(result: FinishResult, why: str) -> None:
    result.gate_lines = [f"GATE FAILED: {why}"]
    result.gate_failed = True
    result.gate_error = why


def write_markdown_summary(result: FinishResult) -> None:
    """Write ``summary.md`` beside ``summary.json``; append it to ``$GITHUB_STEP_SUMMARY``."""
    if result.summary is None or result.summary_path is None:
        return
    text = render_markdown(result.summary, result.gate, result.baseline, result.gate_error)
    path = write_markdown(result.summary_path.with_name("summary.md"), text)
    step = append_step_summary(text)
    also = f" (appended to {step})" if step is not None else ""
    result.lines.append(f"markdown: {path}{also}")


def profile_lines(result: FinishResult) -> list[str]:
    """The category profile of the summary (beside the baseline's, when one was read)."""
    if result.summary is None:
        return []
    profile = build_profile(result.summary, result.baseline)
    return profile_text(profile) if profile.categories else []


def finish_session(
    mle: MLEBenchSession,
    rootdir: Path,
    allure_dir: Path | None,
    update_environment: Callable[[dict[str, Any]], None],
) -> FinishResult:
    """Everything the controller does at the end of a session.

    Args:
        mle: The session state.
        rootdir: pytest's rootdir (git commit, categories template).
        allure_dir: The Allure results folder, or ``None`` when Allure is off.
        update_environment: Calls the ``pytest_mlebench_update_environment`` hook.
    """
    result = FinishResult()
    merged = write_reports(mle, result)
    if allure_dir is not None:
        result.lines.append(
            write_allure_files(mle, rootdir, allure_dir, merged, update_environment)
        )
    apply_gate(mle, result)
    result.lines += profile_lines(result) + result.gate_lines
    write_markdown_summary(result)
    return result
