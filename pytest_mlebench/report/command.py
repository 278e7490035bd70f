"""``mlebench report``: summarise results files, render pages, compare with a baseline.

* ``mlebench report RESULTS...`` merges results files (shards from several machines) and writes
  ``summary.json`` and ``mlebench/`` (grading report + ``submission.jsonl``) into ``--out``.
* ``--html DIR`` also renders the self-contained page; ``--allure DIR`` runs Allure's generator
  on ``--alluredir``.
* ``--compare BASE NEW`` is the CI gate after the fact (:mod:`~pytest_mlebench.report.baseline_gate`,
  mode ``--gate``): exit 1 when it finds a regression of NEW against BASE.

``summary.md`` (:mod:`~pytest_mlebench.report.markdown`) is written into ``--out`` whenever the
command summarises results files or compares, with the gate's verdict when it compared, and is
appended to ``$GITHUB_STEP_SUMMARY`` when that is set. Rendering one ``summary.json`` as it is
(``mlebench report reports/summary.json --html DIR``) writes no Markdown, so the session's own
``summary.md`` (with its verdict) is left alone.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.report.allure_site import AllureUnavailable, generate_allure_site
from pytest_mlebench.report.baseline_gate import GateResult, gate_lines, run_gate
from pytest_mlebench.report.html import write_html
from pytest_mlebench.report.markdown import append_step_summary, render_markdown, write_markdown
from pytest_mlebench.report.merge import merge_files
from pytest_mlebench.report.mlebench_compat import write_mlebench_files
from pytest_mlebench.report.summary_json import (
    build_summary,
    is_summary,
    load_summary,
    write_summary,
)
from pytest_mlebench.report.terminal import group_line
from pytest_mlebench.settings import add_cli_options, cli_value

DEFAULT_ALLURE_RESULTS = Path("reports") / "allure-results"


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
    add_cli_options(parser, "max-drop", "gate", "gate-alpha", "max-cost-increase")
    parser.set_defaults(handler=cmd_report)


def _summary_of(paths: list[Path], seeds: int | None, out: Path) -> tuple[dict[str, Any], bool]:
    """One summary.json as is, or results files merged (and their files written to ``out``);
    the flag says whether a summary was built (rather than read)."""
    if len(paths) == 1 and _is_summary_file(paths[0]):
        return load_summary(paths[0]), False
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise ConfigError(f"no such file: {', '.join(missing)}")
    merged = merge_files(paths, seeds)
    if not merged.records:
        raise ConfigError(f"no run records in {', '.join(map(str, paths))}")
    summary = build_summary(merged)
    print(f"summary: {write_summary(out / 'summary.json', summary)}")
    report, jsonl = write_mlebench_files(out / "mlebench", merged.records)
    print(
        f"mle-bench report: {report}; regrade: mlebench grade --submission {jsonl} --output-dir DIR"
    )
    for finding in merged.findings():
        print(f"merge: {finding}")
    return summary, True


def _is_summary_file(path: Path) -> bool:
    try:
        return is_summary(json.loads(path.read_text("utf-8")))
    except (OSError, ValueError):
        return False


def _print_groups(summary: dict[str, Any]) -> None:
    for agent, section in summary["agents"].items():
        print(f"agent {agent}:")
        for name, stats in section["splits"].items():
            print(f"  {group_line(f'split {name}', stats)}")
        print(f"  {group_line('overall', section['overall'])}")


def _compare(args: argparse.Namespace) -> tuple[GateResult, dict[str, Any], dict[str, Any]]:
    """Run the gate of ``--compare BASE NEW``; print its lines."""
    base_path, new_path = args.compare
    base = load_summary(base_path, args.seeds)
    new = load_summary(new_path, args.seeds)
    gate = run_gate(
        base,
        new,
        baseline=str(base_path),
        mode=cli_value(args, "gate"),
        alpha=cli_value(args, "gate-alpha"),
        max_drop=cli_value(args, "max-drop"),
        max_cost_increase=cli_value(args, "max-cost-increase"),
    )
    for line in gate_lines(gate):
        print(line)
    return gate, base, new


def _write_markdown(
    out: Path, summary: dict[str, Any], gate: GateResult | None, base: dict[str, Any] | None
) -> None:
    text = render_markdown(summary, gate, base)
    path = write_markdown(out / "summary.md", text)
    step = append_step_summary(text)
    print(f"markdown: {path}" + (f" (appended to {step})" if step is not None else ""))


def cmd_report(args: argparse.Namespace) -> int:
    """Run ``mlebench report``; 0 on success, 1 when the gate fails or Allure cannot run."""
    if not (args.results or args.allure or args.compare):
        raise ConfigError("nothing to do: give RESULTS, --allure DIR or --compare BASE NEW")
    if args.html and not args.results:
        raise ConfigError("--html needs RESULTS (results files or a summary.json)")
    code = 0
    summary, built = None, False
    if args.results:
        summary, built = _summary_of(list(args.results), args.seeds, args.out)
        _print_groups(summary)
    gate, base = None, None
    if args.compare:
        gate, base, new = _compare(args)
        code = 0 if gate.ok else 1
    if args.html and summary is not None:
        print(f"html: {write_html(args.html, summary, base)}")
    if args.allure:
        try:
            print(f"allure: {generate_allure_site(args.alluredir, args.allure)}")
        except AllureUnavailable as exc:
            print(f"mlebench report: {exc}")
            code = 1
    if gate is not None:
        _write_markdown(args.out, new, gate, base)
    elif summary is not None and built:
        _write_markdown(args.out, summary, None, None)
    return code
