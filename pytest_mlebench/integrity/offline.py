"""``mlebench integrity RUN_DIR|results.jsonl``: the checks again, offline, on saved runs.

Each run folder keeps its evidence (``integrity/evidence.json``) next to the files the checks
read, so a run can be checked again with another policy, threshold or reference corpus without
running the agent again. Over a results file the cross-run similarity runs too. ``--judge MODEL``
asks the LLM judge about each run as well (its provider's key from the host's environment, as for
``--mle-judge``; the agent's own config is not read here, so the provider is the model's default
or ``--gateway-upstream``).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.integrity.checks import CheckContext, check_run
from pytest_mlebench.integrity.crossrun import cross_run_flags
from pytest_mlebench.integrity.judge import check_judge
from pytest_mlebench.integrity.monitor import load_evidence
from pytest_mlebench.integrity.policy import Policy, load_policy
from pytest_mlebench.integrity.similarity import reference_folder
from pytest_mlebench.records.run_record import RunRecord, read_records
from pytest_mlebench.records.verdict import SEVERITIES, Flag, IntegrityReport
from pytest_mlebench.registry import Registry, load_registry
from pytest_mlebench.settings import add_cli_options, cli_value

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


def load_runs(path: Path) -> list[RunRecord]:
    """The records of a run folder (``record.json``) or of a results file."""
    if path.is_dir():
        record = path / "record.json"
        if not record.is_file():
            raise ConfigError(f"{path}: no record.json; pass a run folder or a results file")
        return [RunRecord.from_dict(json.loads(record.read_text("utf-8")))]
    if path.is_file():
        return list(read_records([path]))
    raise ConfigError(f"{path}: no such run folder or results file")


def recheck(record: RunRecord, policy: Policy, registry: Registry, args: Any) -> IntegrityReport:
    """The integrity report of one saved run under ``policy``."""
    run_dir = Path(str(record.run_dir))
    evidence = load_evidence(run_dir) or {}
    if not evidence.get("egress"):  # runs saved before the evidence kept it
        evidence["egress"] = record.egress
    known = registry.competitions.get(record.competition_id)
    folder = known.folder if known is not None else None
    context = CheckContext(
        policy=policy,
        mode="strict" if args.mode == "strict" else "report",
        network=record.network,
        isolated=record.isolated,
        references=reference_folder(folder, args.references, record.competition_id),
        judge=args.judge,
    )
    calls = evidence.get("validation_calls", record.validation_calls)
    earned = record.grade.medal if record.grade else None
    return check_run(evidence, run_dir, calls, context, earned)


def cmd_integrity(args: argparse.Namespace) -> int:
    policy = load_policy(cli_value(args, "integrity-policy")).with_threshold(
        cli_value(args, "similarity")
    )
    args.mode = cli_value(args, "integrity")
    args.references = cli_value(args, "references")
    args.judge = check_judge(
        cli_value(args, "judge"),
        None,
        dict(cli_value(args, "gateway-upstream")),
        cli_value(args, "price-table"),
    )
    registry = load_registry(cli_value(args, "competitions-dir"))
    records = [r for r in load_runs(args.path) if r.run_dir and Path(r.run_dir).is_dir()]
    reports = {r.run_id: recheck(r, policy, registry, args) for r in records}
    session = cross_run_flags(records, policy)
    for record in records:
        print(_run_text(record, reports[record.run_id]))
    for flag in session:
        print(f"session: {flag.summary()}")
    flagged = sum(1 for report in reports.values() if report.flags)
    print(f"{len(records)} run(s) checked with {policy.source}; {flagged} flagged")
    if args.json:
        out = {
            "runs": {run_id: report.to_dict() for run_id, report in reports.items()},
            "session_flags": [f.to_dict() for f in session],
        }
        args.json.write_text(json.dumps(out, indent=2, default=str) + "\n", "utf-8")
    return 1 if args.fail_on and _any_at_least(reports, session, args.fail_on) else 0


def _run_text(record: RunRecord, report: IntegrityReport) -> str:
    head = f"{record.run_id} ({record.agent}): {len(report.flags)} flag(s)"
    if report.medal_withheld:
        head += f", medal {report.earned_medal} withheld"
    return "\n".join([head, *(f"  {flag.summary()}" for flag in report.flags)])


def _any_at_least(reports: dict[str, IntegrityReport], session: list[Flag], severity: str) -> bool:
    if any(report.at_least(severity) for report in reports.values()):
        return True
    return bool(IntegrityReport(flags=tuple(session)).at_least(severity))
