"""``mlebench integrity RUN_DIR|results.jsonl``: the integrity checks again on saved runs.

The command reads its options (the ``--mle-*`` settings of the same names, CLI > environment >
default), hands them to :mod:`pytest_mlebench.integrity.offline` as plain values and prints what
it found. ``--judge MODEL`` asks the LLM judge about each run as well (its provider's key from the
host's environment, as for ``--mle-judge``; the agent's own config is not read here, so the
provider is the model's default or ``--gateway-upstream``). It lives above the integrity package
because it reads the settings, which the package itself never does.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path

from pytest_mlebench.integrity.monitor import integrity_options
from pytest_mlebench.integrity.offline import recheck_runs
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.records.verdict import IntegrityReport
from pytest_mlebench.registry import load_registry
from pytest_mlebench.settings import add_cli_options, cli_value
from pytest_mlebench.values.severity import SEVERITIES

SETTINGS_USED = (
    "integrity",
    "integrity-policy",
    "references",
    "similarity",
    "judge",
    "price-table",
    "gateway-upstream",
)


def add_integrity_command(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    common: Callable[[argparse.ArgumentParser], None],
) -> None:
    parser = commands.add_parser(
        "integrity", help="run the integrity checks again on saved runs (docs/integrity.md)"
    )
    parser.add_argument("path", type=Path, help="a run folder, or a results file (results.jsonl)")
    add_cli_options(parser, *SETTINGS_USED)
    common(parser)
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the reports here")
    parser.add_argument(
        "--fail-on",
        choices=SEVERITIES,
        help="exit with 1 when a flag of this severity or worse is found",
    )
    parser.set_defaults(handler=cmd_integrity)


def cmd_integrity(args: argparse.Namespace) -> int:
    options = integrity_options(
        policy_file=cli_value(args, "integrity-policy"),
        similarity=cli_value(args, "similarity"),
        mode=cli_value(args, "integrity"),
        references=cli_value(args, "references"),
        judge_model=cli_value(args, "judge"),
        agent=None,
        upstreams=dict(cli_value(args, "gateway-upstream")),
        price_table=cli_value(args, "price-table"),
        data_dir=cli_value(args, "data-dir"),
    )
    registry = load_registry(cli_value(args, "competitions-dir"))
    found = recheck_runs(args.path, options, registry)
    for record in found.records:
        print(_run_text(record, found.reports[record.run_id]))
    for flag in found.session_flags:
        print(f"session: {flag.summary()}")
    flagged = sum(1 for report in found.reports.values() if report.flags)
    print(f"{len(found.records)} run(s) checked with {options.policy.source}; {flagged} flagged")
    if args.json:
        out = {
            "runs": {run_id: report.to_dict() for run_id, report in found.reports.items()},
            "session_flags": [f.to_dict() for f in found.session_flags],
        }
        args.json.write_text(json.dumps(out, indent=2, default=str) + "\n", "utf-8")
    return 1 if args.fail_on and found.at_least(args.fail_on) else 0


def _run_text(record: RunRecord, report: IntegrityReport) -> str:
    head = f"{record.run_id} ({record.agent}): {len(report.flags)} flag(s)"
    if report.medal_withheld:
        head += f", medal {report.earned_medal} withheld"
    return "\n".join([head, *(f"  {flag.summary()}" for flag in report.flags)])
