"""A person clears a medal that ``--mle-integrity strict`` withheld (``mlebench integrity clear``).

A withheld medal (a ``too-good`` score, a pre-made submission…) is held until a person has looked
at the run. :func:`clear_run` records who cleared it, when and why in the run's integrity report
(``clearance``), sets ``medal_withheld`` back to false — the flags stay — and writes the record
everywhere a later report reads it: its line in the results file (rewritten whole under the
writers' lock, as a session's drop does), the run folder's ``record.json``, and
``integrity/clearance.json`` beside the run's evidence. ``mlebench report`` over that results file
then counts the medal and shows the clearance. No settings read: the command passes the values.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.records.rewrite import replace_lines, results_lock, write_run_record
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.suggest import closest, did_you_mean
from pytest_mlebench.timestamps import utc_timestamp

CLEARANCE_FILE = "clearance.json"


class ClearanceError(MLEBenchError):
    """An unknown run id, a missing reason, or a run whose medal is not withheld."""


@dataclass(frozen=True)
class Clearance:
    """Who cleared a withheld medal, when (ISO 8601, UTC) and why."""

    by: str
    at: str
    reason: str
    medal: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"by": self.by, "at": self.at, "reason": self.reason, "medal": self.medal}


def clear_run(results: Path, run: str, reason: str, by: str) -> RunRecord:
    """Clear the withheld medal of ``run`` (an id, or a unique prefix of one) in ``results``.

    Returns:
        The cleared record, as now written.

    Raises:
        ClearanceError: No reason given, no such run (or several), or nothing to clear.
    """
    why = reason.strip()
    if not why:
        raise ClearanceError(
            'a clearance needs a reason: --reason "what you checked and why the score holds"'
        )
    with results_lock(results):
        lines = _lines(results)
        record = _find(lines, run, results)
        cleared = _cleared(record, Clearance(by, utc_timestamp(), why, record.earned_medal))
        write_atomically(results, "".join(replace_lines(lines, {cleared.run_id: cleared})))
    _write_run_folder(cleared)
    return cleared


def _lines(results: Path) -> list[str]:
    try:
        return results.read_text("utf-8").splitlines(keepends=True)
    except FileNotFoundError:
        raise ClearanceError(
            f"{results}: no results file; pass the session's with --results FILE"
        ) from None


def _records(lines: list[str]) -> list[RunRecord]:
    found = []
    for line in lines:
        try:
            found.append(RunRecord.from_dict(json.loads(line)))
        except (ValueError, TypeError):
            continue
    return found


def _find(lines: list[str], run: str, results: Path) -> RunRecord:
    records = {record.run_id: record for record in _records(lines)}
    if run in records:
        return records[run]
    matching = sorted(run_id for run_id in records if run_id.startswith(run))
    if len(matching) == 1:
        return records[matching[0]]
    if matching:
        raise ClearanceError(
            f"{run!r} is the start of {len(matching)} run ids in {results} "
            f"({', '.join(matching[:5])}); give more of the id"
        )
    raise ClearanceError(
        f"no run {run!r} in {results}{did_you_mean(closest(run, sorted(records)))}; "
        "pass the results file of the session that made the run with --results FILE"
    )


def _cleared(record: RunRecord, clearance: Clearance) -> RunRecord:
    report = record.integrity
    if report is None or not report.medal_withheld:
        raise ClearanceError(f"run {record.run_id}: {_nothing_to_clear(record)}; nothing to clear")
    return replace(
        record, integrity=replace(report, medal_withheld=False, clearance=clearance.to_dict())
    )


def _nothing_to_clear(record: RunRecord) -> str:
    report = record.integrity
    if report is not None and report.clearance:
        done = report.clearance
        return f"its medal was cleared already by {done.get('by')} at {done.get('at')}"
    if report is None:
        return "no integrity report"
    return "no medal is withheld (only --mle-integrity strict withholds one)"


def _write_run_folder(record: RunRecord) -> None:
    if not record.run_dir or not Path(record.run_dir).is_dir() or record.integrity is None:
        return
    folder = Path(record.run_dir)
    write_run_record(record)
    (folder / "integrity").mkdir(exist_ok=True)
    text = json.dumps(record.integrity.clearance, indent=2) + "\n"
    write_atomically(folder / "integrity" / CLEARANCE_FILE, text)
