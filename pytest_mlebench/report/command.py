"""``mlebench report``: summarise results files, render pages, compare with a baseline.

* ``mlebench report RESULTS...`` merges results files (shards from several machines) and writes
  ``summary.json`` and ``mlebench/`` (grading report + ``submission.jsonl``) into ``--out``.
* ``--html DIR`` also renders the self-contained page; ``--allure DIR`` runs Allure's generator
  on ``--alluredir``.
* ``--session ID`` and ``--agent NAME`` (repeatable) keep the records of those sessions and agents
  (:mod:`~pytest_mlebench.report.session_select`); ``--list-sessions`` lists the sessions of the
  results files (default ``reports/results.jsonl``). Each session's own summary also stays in
  ``reports/sessions/<id>/summary.json``, a baseline for ``--compare`` and ``--mle-baseline``.
* ``--compare BASE NEW`` is the CI gate after the fact
  (:mod:`~pytest_mlebench.report.baseline_gate`, mode ``--gate``): exit 1 when it finds a
  regression of NEW against BASE, or when their manifests differ on a key that changes results
  (:mod:`~pytest_mlebench.manifest.comparability`) that ``--allow-different KEY`` does not name.

Everything goes through the report pipeline the session end uses
(:mod:`~pytest_mlebench.report.pipeline`, the writers of :mod:`~pytest_mlebench.report.writers`).
``summary.md`` (:mod:`~pytest_mlebench.report.markdown`) is written into ``--out`` whenever the
command summarises results files or compares, with the gate's verdict when it compared, and is
appended to ``$GITHUB_STEP_SUMMARY`` when that is set. Rendering one ``summary.json`` as it is
(``mlebench report reports/summary.json --html DIR``) writes no Markdown, so the session's own
``summary.md`` (with its verdict) is left alone.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.manifest.writer import ManifestWriter
from pytest_mlebench.records.run_record import RunRecord, read_records
from pytest_mlebench.report.allure_site import AllureUnavailable, generate_allure_site
from pytest_mlebench.report.pipeline import (
    compare_with_baseline,
    publish,
    report_from_records,
    report_from_summary,
)
from pytest_mlebench.report.score_history import load_history
from pytest_mlebench.report.session_report import GateSettings, SessionReport, Summary
from pytest_mlebench.report.session_select import select_records, session_rows
from pytest_mlebench.report.summary_json import is_summary
from pytest_mlebench.report.writers import (
    GroupLines,
    HtmlWriter,
    MarkdownWriter,
    MlebenchFilesWriter,
    ReportWriter,
    SummaryFileWriter,
    VerdictLines,
)
from pytest_mlebench.settings import add_cli_options, cli_value

DEFAULT_ALLURE_RESULTS = Path("reports") / "allure-results"
DEFAULT_RESULTS = Path("reports") / "results.jsonl"


def add_report_command(commands: Any) -> None:
    """Add the ``report`` subcommand to the ``mlebench`` parser."""
    parser = commands.add_parser(
        "report",
        help="summarise results files (shards merged), render HTML/Allure pages, compare runs",
    )
    parser.add_argument(
        "results", nargs="*", type=Path, help="results files (JSON lines) or one summary.json"
    )
    parser.add_argument(
        "--out", type=Path, default=Path("reports"), help="folder for summary.json and mlebench/"
    )
    parser.add_argument(
        "--session",
        action="append",
        default=[],
        metavar="ID",
        help="only the runs of this session (an id or its unique start; repeatable); "
        "--list-sessions shows the ids",
    )
    parser.add_argument(
        "--agent",
        action="append",
        default=[],
        metavar="NAME",
        help="only the runs of this agent (repeatable)",
    )
    parser.add_argument(
        "--list-sessions",
        action="store_true",
        help=f"list the sessions of RESULTS (default {DEFAULT_RESULTS}) and exit",
    )
    parser.add_argument(
        "--seeds", type=int, default=None, help="seeds each competition should have"
    )
    parser.add_argument(
        "--html", type=Path, metavar="DIR", help="write the HTML page DIR/index.html"
    )
    parser.add_argument(
        "--allure", type=Path, metavar="DIR", help="generate Allure's report into DIR"
    )
    parser.add_argument(
        "--alluredir",
        type=Path,
        default=DEFAULT_ALLURE_RESULTS,
        help=f"Allure results folder for --allure (default {DEFAULT_ALLURE_RESULTS})",
    )
    parser.add_argument(
        "--compare",
        nargs=2,
        type=Path,
        metavar=("BASE", "NEW"),
        help="compare NEW with the baseline BASE (each a summary.json or a results file) and "
        "exit 1 when the gate (--gate) finds a regression: paired (runs matched by competition "
        "and seed) or the any-medal or valid-submission rate more than --max-drop points below "
        "BASE's; writes summary.md with the verdict into --out",
    )
    parser.add_argument(
        "--history",
        type=Path,
        metavar="DIR",
        help="earlier summary.json files (any depth under DIR, e.g. CI artifacts): the trend of "
        "the engineering scores in the HTML page and the 'last 5' column of summary.md",
    )
    add_cli_options(
        parser, "max-drop", "gate", "gate-alpha", "max-cost-increase", "allow-different"
    )
    parser.set_defaults(handler=cmd_report)


def results_report(
    paths: list[Path],
    seeds: int | None,
    out: Path,
    sessions: Sequence[str] = (),
    agents: Sequence[str] = (),
) -> SessionReport:
    """One summary.json as it is, or results files merged and summarised (only the runs of
    ``sessions`` and ``agents`` when named)."""
    if len(paths) == 1 and _is_summary_file(paths[0]):
        if sessions or agents:
            raise ConfigError(
                f"--session and --agent select runs of results files; {paths[0]} is a "
                f"summary.json (give {DEFAULT_RESULTS} or another results file)"
            )
        return report_from_summary(paths[0], out)
    records = select_records(read_results(paths), sessions, agents)
    return report_from_records(records, out, sources=[str(p) for p in paths], seeds=seeds)


def read_results(paths: Sequence[Path]) -> list[RunRecord]:
    """Every record of the results files ``paths``; :class:`ConfigError` when there is none."""
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise ConfigError(f"no such file: {', '.join(missing)}")
    records = list(read_records(paths))
    if not records:
        raise ConfigError(f"no run records in {', '.join(map(str, paths))}")
    return records


def _is_summary_file(path: Path) -> bool:
    try:
        return is_summary(json.loads(path.read_text("utf-8")))
    except (OSError, ValueError):
        return False


def compared_report(args: argparse.Namespace) -> SessionReport:
    """``--compare BASE NEW``: NEW's report judged against BASE."""
    base_path, new_path = args.compare
    new = report_from_summary(new_path, args.out, args.seeds)
    gate = GateSettings(
        mode=cli_value(args, "gate"),
        alpha=cli_value(args, "gate-alpha"),
        max_drop=cli_value(args, "max-drop"),
        max_cost_increase=cli_value(args, "max-cost-increase"),
        allow_different=cli_value(args, "allow-different"),
    )
    judged = compare_with_baseline(new, base_path, str(base_path), gate)
    if judged.gate_error is not None:
        raise ConfigError(judged.gate_error)
    return judged


def cmd_report(args: argparse.Namespace) -> int:
    """Run ``mlebench report``; 0 on success, 1 when the gate fails or Allure cannot run."""
    if args.list_sessions:
        rows = session_rows(read_results(list(args.results) or [DEFAULT_RESULTS]))
        _print([row.line() for row in rows])
        return 0
    if (args.session or args.agent) and not args.results:
        args.results = [DEFAULT_RESULTS]
    if not (args.results or args.allure or args.compare):
        raise ConfigError(
            "nothing to do: give RESULTS, --allure DIR, --compare BASE NEW or --list-sessions"
        )
    if args.html and not (args.results or args.compare):
        raise ConfigError("--html needs RESULTS (results files or a summary.json) or --compare")
    lines: list[str] = []
    history: tuple[Summary, ...] = ()
    if args.history is not None:
        found = load_history(args.history)
        history = tuple(Summary.from_layout(summary) for summary in found.summaries)
        lines.append(f"history: {len(history)} earlier summaries in {args.history}")
        lines += [f"history: passed over {note}" for note in found.passed_over]
    report = (
        results_report(list(args.results), args.seeds, args.out, args.session, args.agent)
        if args.results
        else None
    )
    if report is not None:
        report = replace(report, history=history)
        writers: list[ReportWriter] = [
            SummaryFileWriter(),
            ManifestWriter(),
            MlebenchFilesWriter(),
            GroupLines(),
        ]
        lines += publish(report, writers)
    compared = compared_report(args) if args.compare else None
    if compared is not None:
        compared = replace(compared, history=history)
        lines += publish(compared, [VerdictLines()])
    if args.html:
        lines += publish(page_report(report, compared), [HtmlWriter(args.html)])
    _print(lines)
    code = 1 if compared is not None and compared.gate_failed else 0
    if args.allure:
        try:
            print(f"allure: {generate_allure_site(args.alluredir, args.allure)}")
        except AllureUnavailable as exc:
            print(f"mlebench report: {exc}")
            code = 1
    if compared is not None:
        _print(publish(compared, [MarkdownWriter()]))
    elif report is not None and report.built:
        _print(publish(report, [MarkdownWriter()]))
    return code


def page_report(report: SessionReport | None, compared: SessionReport | None) -> SessionReport:
    """What the HTML page draws: RESULTS' report, with the comparison when ``--compare`` ran;
    ``--compare`` alone draws NEW against BASE."""
    if report is None or compared is None:
        shown = report or compared
        if shown is None:
            raise ConfigError("--html needs RESULTS (results files or a summary.json) or --compare")
        return shown
    return replace(report, baseline=compared.baseline, gate=compared.gate)


def _print(lines: list[str]) -> None:
    for line in lines:
        print(line)
