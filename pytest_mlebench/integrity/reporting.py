"""Integrity in the reports: the summary's section, terminal lines, Allure tags and categories.

Pure functions over run records (and the session's cross-run flags); the report modules call
them. Flags never change a score; in strict mode a withheld medal counts as no medal in every
rate, and the summary also gives the rate before the policy (``any_medal_before_integrity``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.records.verdict import Flag, severity_rank
from pytest_mlebench.values.severity import SEVERITIES

FLAG_KINDS = (
    "watermark",
    "process",
    "logs",
    "rules",
    "validator-use",
    "validator-probing",
    "similarity",
)
SHOWN_FROM = "medium"  # the terminal lists flags of this severity or worse; the rest are counted


def run_integrity(record: RunRecord) -> dict[str, Any] | None:
    """What ``summary.json`` keeps of one run's integrity report."""
    report = record.integrity
    if report is None:
        return None
    return {
        "flags": [
            {"kind": f.kind, "rule": f.rule, "severity": f.severity, "reason": f.reason}
            for f in report.flags
        ],
        "worst": report.worst,
        "medal_withheld": report.medal_withheld,
        "earned_medal": report.earned_medal,
    }


def integrity_section(
    records: Sequence[RunRecord], session_flags: Sequence[Flag] = ()
) -> dict[str, Any]:
    """The summary's ``integrity`` block: counts by kind and severity, withheld medals."""
    checked = [r for r in records if r.integrity is not None]
    flags = [f for r in checked for f in r.integrity.flags]  # type: ignore[union-attr]
    by_severity = Counter(f.severity for f in flags)
    return {
        "runs_checked": len(checked),
        "runs_flagged": sum(1 for r in checked if r.integrity and r.integrity.flags),
        "runs_with_high": sum(1 for r in checked if r.integrity and r.integrity.at_least("high")),
        "medals_withheld": sum(1 for r in checked if r.integrity and r.integrity.medal_withheld),
        "modes": sorted({r.integrity.mode for r in checked if r.integrity}),
        "flags_by_severity": {s: by_severity[s] for s in SEVERITIES},
        "flags_by_kind": dict(sorted(Counter(f.kind for f in flags).items())),
        "session_flags": [f.to_dict() for f in session_flags],
    }


def terminal_lines(
    records: Sequence[RunRecord], label: Any, session_flags: Sequence[Flag] = ()
) -> list[str]:
    """Integrity lines for the terminal summary; ``label(record)`` names a run."""
    checked = [r for r in records if r.integrity is not None]
    if not checked and not session_flags:
        return []
    section = integrity_section(checked, session_flags)
    counts = ", ".join(f"{n} {s}" for s, n in section["flags_by_severity"].items() if n)
    lines = [
        f"integrity: {section['runs_flagged']} of {section['runs_checked']} runs flagged"
        + (f" ({counts})" if counts else "")
        + f"; {section['medals_withheld']} medal(s) withheld"
        + f"; mode {'/'.join(section['modes']) or 'report'}"
    ]
    for record in checked:
        assert record.integrity is not None
        for flag in record.integrity.flags:
            if severity_rank(flag.severity) >= severity_rank(SHOWN_FROM):
                lines.append(f"  {label(record)}: {flag.summary()}")
    lines += [f"  session: {flag.summary()}" for flag in session_flags]
    return lines


def allure_tags(record: RunRecord) -> list[str]:
    """``integrity:<kind>`` per flag kind of the run, plus ``integrity:withheld``."""
    report = record.integrity
    if report is None:
        return []
    tags = sorted({f"integrity:{f.kind}" for f in report.flags})
    return tags + (["integrity:withheld"] if report.medal_withheld else [])


def allure_categories() -> list[dict[str, Any]]:
    """One Allure category per flag kind (runs whose medal strict mode withheld for it)."""
    return [
        {
            "name": f"Integrity: {kind}",
            "matchedStatuses": ["failed"],
            "messageRegex": f"(?s).*medal withheld \\(integrity: {kind}\\).*",
        }
        for kind in FLAG_KINDS
    ]
