"""The checks again, offline, on saved runs (what ``mlebench integrity`` does). No settings read.

Each run folder keeps its evidence (``integrity/evidence.json``) next to the files the checks
read, so a run can be checked again with another policy, threshold or reference corpus without
running the agent again. Over a results file the cross-run similarity runs too. The command that
reads the options and prints the verdicts is :mod:`pytest_mlebench.integrity_command`; here the
options arrive as plain values (:class:`~pytest_mlebench.integrity.monitor.IntegrityOptions`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.integrity.checks import CheckContext, check_run
from pytest_mlebench.integrity.crossrun import cross_run_flags
from pytest_mlebench.integrity.monitor import IntegrityOptions, competition_claim
from pytest_mlebench.integrity.run_evidence import Evidence, calls_of, load_evidence
from pytest_mlebench.integrity.similarity import reference_folder
from pytest_mlebench.records.run_record import RunRecord, read_records
from pytest_mlebench.records.verdict import Flag, IntegrityReport
from pytest_mlebench.registry import Registry


@dataclass(frozen=True)
class Recheck:
    """The checks again over saved runs: the runs, a report per run id, the cross-run flags."""

    records: list[RunRecord]
    reports: dict[str, IntegrityReport]
    session_flags: list[Flag]

    def at_least(self, severity: str) -> bool:
        """Whether a run, or the cross-run check, found a flag of ``severity`` or worse."""
        if any(report.at_least(severity) for report in self.reports.values()):
            return True
        return bool(IntegrityReport(flags=tuple(self.session_flags)).at_least(severity))


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


def recheck(record: RunRecord, options: IntegrityOptions, registry: Registry) -> IntegrityReport:
    """The integrity report of one saved run under ``options`` (its network as recorded)."""
    run_dir = Path(str(record.run_dir))
    evidence = load_evidence(run_dir) or Evidence()
    if not evidence.egress:  # runs saved before the evidence kept it
        evidence = replace(evidence, egress=record.egress)
    known = registry.competitions.get(record.competition_id)
    folder = known.folder if known is not None else None
    context = CheckContext(
        policy=options.policy,
        mode=options.mode,
        network=record.network,
        isolated=record.isolated,
        references=reference_folder(
            folder, options.references, record.competition_id, options.data_dir
        ),
        judge=options.judge,
        claim=competition_claim(known, record.grade.score if record.grade else None),
    )
    calls = calls_of(evidence, record.validation_calls)
    earned = record.grade.medal if record.grade else None
    report = check_run(evidence, run_dir, calls, context, earned)
    cleared = record.integrity.clearance if record.integrity else None
    if cleared and report.medal_withheld:  # a person cleared it: the clearance stands
        return replace(report, medal_withheld=False, clearance=cleared)
    return report


def recheck_runs(path: Path, options: IntegrityOptions, registry: Registry) -> Recheck:
    """Every saved run under ``path`` whose folder still exists, checked again, and across runs."""
    records = [r for r in load_runs(path) if r.run_dir and Path(r.run_dir).is_dir()]
    reports = {r.run_id: recheck(r, options, registry) for r in records}
    return Recheck(records, reports, cross_run_flags(records, options.policy))
