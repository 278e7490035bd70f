"""What the harness recorded about the run beside the agent's account: the validator's calls
(the record's ``validation_calls``), the files the run left and the copy-out's account, and the
process audit (``integrity/evidence.json``, :mod:`pytest_mlebench.integrity`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.run_page.model import Step, WrittenFile, epoch_of
from pytest_mlebench.report.run_page.reading import json_file

EVIDENCE = Path("integrity") / "evidence.json"


def validation_steps(record: RunRecord) -> list[Step]:
    """A step per call of ``validate_submission.sh``, with the validator's answer."""
    steps = []
    for call in record.validation_calls:
        valid = call.get("valid")
        answer = "valid" if valid else f"invalid: {call.get('reason') or 'no reason given'}"
        facts = [f"{call['rows']} rows"] if call.get("rows") is not None else []
        if call.get("sha256"):
            facts.append(f"sha256 {str(call['sha256'])[:12]}")
        steps.append(
            Step(
                "validation",
                epoch_of(call.get("time")),
                f"validator: {answer}",
                tuple(facts),
                failed=not valid,
            )
        )
    return steps


def run_evidence(run_dir: Path) -> dict[str, Any]:
    """The run's integrity evidence (empty when it has none)."""
    found = json_file(run_dir / EVIDENCE)
    return found if isinstance(found, dict) else {}


def written_files(evidence: dict[str, Any]) -> tuple[WrittenFile, ...]:
    """The submission and code files of the inventory, oldest change first."""
    inventory = evidence.get("inventory")
    inventory = inventory if isinstance(inventory, dict) else {}
    files = []
    submission = inventory.get("submission")
    if isinstance(submission, dict):
        files.append(_file("submission.csv", submission))
    for entry in inventory.get("code") or ():
        if isinstance(entry, dict):
            files.append(_file(f"code/{entry.get('path', '?')}", entry))
    return tuple(sorted(files, key=lambda f: (f.at is None, f.at or 0.0, f.path)))


def _file(path: str, entry: dict[str, Any]) -> WrittenFile:
    size, mtime = entry.get("size"), entry.get("mtime")
    return WrittenFile(
        path,
        size if isinstance(size, int) else None,
        float(mtime) if isinstance(mtime, int | float) else None,
    )


def audited_processes(evidence: dict[str, Any]) -> tuple[dict[str, Any], ...]:
    """The process audit's command lines with first and last sighting (seconds into the run)."""
    audit = evidence.get("process_audit")
    if not isinstance(audit, dict):
        return ()
    return tuple(p for p in audit.get("processes") or () if isinstance(p, dict))
