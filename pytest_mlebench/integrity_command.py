"""``mlebench integrity RUN_DIR|results.jsonl``: the integrity checks again on saved runs.

The command reads its options (the ``--mle-*`` settings of the same names, CLI > environment >
default), hands them to :mod:`pytest_mlebench.integrity.offline` as plain values and prints what
it found. ``--judge MODEL`` asks the LLM judge about each run as well (its provider's key from the
host's environment, as for ``--mle-judge``; the agent's own config is not read here, so the
provider is the model's default or ``--gateway-upstream``). It lives above the integrity package
because it reads the settings, which the package itself never does.

``mlebench integrity clear RUN_ID --reason "…"`` clears a medal that ``--mle-integrity strict``
withheld, after a person has looked at the run (:mod:`pytest_mlebench.integrity.clearance`):
the run is looked up in ``--results`` (default ``reports/results.jsonl``) and the clearance is
recorded there and in the run's folder, with who (``--by``, default the user's login name), when
and why.
"""

from __future__ import annotations

import argparse
import getpass
import json
from collections.abc import Callable
from pathlib import Path

from pytest_mlebench.integrity.clearance import ClearanceError, clear_run
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
    parser.add_argument(
        "path",
        help="a run folder, or a results file (results.jsonl); or 'clear' followed by RUN_ID",
    )
    parser.add_argument(
        "run", nargs="?", metavar="RUN_ID", help="with 'clear': the run whose medal is cleared"
    )
    add_cli_options(parser, *SETTINGS_USED, "results")
    parser.add_argument(
        "--reason", help="with 'clear': why the withheld medal stands (required, recorded)"
    )
    parser.add_argument(
        "--by", help="with 'clear': who clears it (recorded; default: your login name)"
    )
    common(parser)
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the reports here")
    parser.add_argument(
        "--fail-on",
        choices=SEVERITIES,
        help="exit with 1 when a flag of this severity or worse is found",
    )
    parser.set_defaults(handler=cmd_integrity)


def cmd_integrity(args: argparse.Namespace) -> int:
    if args.path == "clear" and not Path(args.path).exists():
        return cmd_clear(args)
    if args.run is not None:
        raise ClearanceError(
            f"unexpected {args.run!r}: 'mlebench integrity PATH' takes one path; "
            'to clear a withheld medal: mlebench integrity clear RUN_ID --reason "..."'
        )
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
    found = recheck_runs(Path(args.path), options, registry)
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
    if report.clearance:
        head += f", medal {report.earned_medal} cleared by {report.clearance.get('by')}"
    return "\n".join([head, *(f"  {flag.summary()}" for flag in report.flags)])


def cmd_clear(args: argparse.Namespace) -> int:
    """``mlebench integrity clear RUN_ID --reason …``: count a withheld medal, recorded."""
    if not args.run:
        raise ClearanceError(
            'name the run: mlebench integrity clear RUN_ID --reason "..." '
            "(the run ids are in the summary and under runs/ beside the results file)"
        )
    results: Path = cli_value(args, "results")
    record = clear_run(results, args.run, args.reason or "", args.by or getpass.getuser())
    clearance = record.integrity.clearance if record.integrity else None
    print(
        f"{record.run_id} ({record.agent}, {record.competition_id}): medal "
        f"{record.earned_medal} cleared by {(clearance or {}).get('by')}; it counts in every "
        f"report built from {results} from now on"
    )
    return 0
