"""The report writers: each turns one finished report into files (or lines) of one format.

A writer is anything with ``write(report) -> lines`` (:class:`ReportWriter`); it reads the frozen
:class:`~pytest_mlebench.report.session_report.SessionReport` and returns what the terminal should
say about what it wrote. Adding a report format means adding one writer here and naming it where
the pipeline is driven (:mod:`~pytest_mlebench.report.finish`,
:mod:`~pytest_mlebench.report.command`). :class:`MemoryWriter` keeps the reports it is given, for
tests.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pytest_mlebench.report.allure import write_session_files
from pytest_mlebench.report.baseline_gate import gate_lines
from pytest_mlebench.report.category_profiles import build_profile, profile_text
from pytest_mlebench.report.html import write_html
from pytest_mlebench.report.markdown import append_step_summary, render_markdown, write_markdown
from pytest_mlebench.report.mlebench_compat import write_mlebench_files
from pytest_mlebench.report.session_report import SessionReport
from pytest_mlebench.report.summary_json import write_summary
from pytest_mlebench.report.terminal import group_line

HTML_FOLDER = "html"  # the session's page: <results folder>/html/index.html
SESSIONS_FOLDER = "sessions"  # <results folder>/sessions/<session id>/summary.json


class ReportWriter(Protocol):
    """Writes one format of a finished report; returns its lines for the terminal."""

    def write(self, report: SessionReport) -> list[str]: ...


class SummaryFileWriter:
    """``summary.json`` (of a summary built from records) and what the merge found."""

    def write(self, report: SessionReport) -> list[str]:
        if not report.built:
            return []
        summary = report.summary
        path = write_summary(report.out_dir / "summary.json", summary.to_dict())
        line = (
            f"summary: {path} ({summary.runs} runs, {summary.not_run} not run, from "
            f"{len(summary.sessions)} session(s) in {', '.join(summary.sources)})"
        )
        return [line, *(f"merge: {finding}" for finding in report.merge_findings)]


@dataclass(frozen=True)
class SessionSummaryWriter:
    """``sessions/<id>/summary.json``: the session's summary kept beside the shared
    ``summary.json``, which the next session overwrites, so a gate can find it later."""

    session_id: str

    def write(self, report: SessionReport) -> list[str]:
        if not report.built:
            return []
        target = report.out_dir / SESSIONS_FOLDER / self.session_id / "summary.json"
        path = write_summary(target, report.summary.to_dict())
        return [f"session summary: {path} (a baseline for --mle-baseline and report --compare)"]


class MlebenchFilesWriter:
    """``mlebench/grading_report.json`` and ``mlebench/submission.jsonl`` (built reports)."""

    def write(self, report: SessionReport) -> list[str]:
        if not report.built:
            return []
        report_path, jsonl = write_mlebench_files(report.out_dir / "mlebench", report.records)
        return [
            f"mle-bench report: {report_path}; regrade: mlebench grade --submission {jsonl} "
            "--output-dir DIR"
        ]


class MarkdownWriter:
    """``summary.md`` beside ``summary.json``, appended to ``$GITHUB_STEP_SUMMARY`` when set."""

    def write(self, report: SessionReport) -> list[str]:
        baseline = report.baseline.to_dict() if report.baseline is not None else None
        history = [summary.to_dict() for summary in report.history]
        text = render_markdown(report.summary, report.gate, baseline, report.gate_error, history)
        path = write_markdown(report.out_dir / "summary.md", text)
        step = append_step_summary(text)
        return [f"markdown: {path}" + (f" (appended to {step})" if step is not None else "")]


@dataclass(frozen=True)
class HtmlWriter:
    """The self-contained page ``<folder>/index.html``.

    Attributes:
        folder: Where the page goes.
        remake: Name the command that makes the page again from ``summary.json``.
    """

    folder: Path
    remake: bool = False

    def write(self, report: SessionReport) -> list[str]:
        baseline = report.baseline.to_dict() if report.baseline is not None else None
        history = [summary.to_dict() for summary in report.history]
        compared = gate_lines(report.gate) if report.gate is not None else ()
        page = write_html(self.folder, report.summary.to_dict(), baseline, history, compared)
        if not self.remake:
            return [f"html: {page}"]
        source = report.out_dir / "summary.json"
        return [f"html: {page} (make it again: mlebench report {source} --html {self.folder})"]


@dataclass(frozen=True)
class AllureSessionWriter:
    """``environment.properties`` and ``categories.json`` in the Allure results folder."""

    folder: Path
    environment: dict[str, Any]
    categories: list[dict[str, Any]]

    def write(self, report: SessionReport) -> list[str]:
        write_session_files(self.folder, self.environment, self.categories)
        return [f"allure: environment.properties and categories.json written to {self.folder}"]


class VerdictLines:
    """No file: the category profile (beside the baseline's) and the gate's verdict."""

    def write(self, report: SessionReport) -> list[str]:
        baseline = report.baseline.to_dict() if report.baseline is not None else None
        profile = build_profile(report.summary.to_dict(), baseline)
        lines = profile_text(profile) if profile.categories else []
        if report.gate is not None:
            lines += gate_lines(report.gate)
        elif report.gate_error is not None:
            lines.append(f"GATE FAILED: {report.gate_error}")
        return lines


class GroupLines:
    """No file: per agent, one line per split and one overall (``mlebench report``)."""

    def write(self, report: SessionReport) -> list[str]:
        lines = []
        for agent, section in report.summary["agents"].items():
            lines.append(f"agent {agent}:")
            lines += [f"  {group_line(f'split {n}', s)}" for n, s in section["splits"].items()]
            lines.append(f"  {group_line('overall', section['overall'])}")
        return lines


@dataclass
class MemoryWriter:
    """Keeps every report it is handed (and writes nothing): the writer tests use."""

    reports: list[SessionReport] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)

    def write(self, report: SessionReport) -> list[str]:
        self.reports.append(report)
        return list(self.lines)

    def summaries(self) -> list[dict[str, Any]]:
        """The summaries handed over, as JSON would hold them."""
        return [json.loads(json.dumps(r.summary.to_dict())) for r in self.reports]
