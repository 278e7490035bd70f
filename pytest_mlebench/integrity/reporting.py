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
    "score",
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
        "too_good": too_good_of(report.flags),
        "clearance": report.clearance,
    }


def too_good_of(flags: Sequence[Flag]) -> dict[str, Any] | None:
    """The ``too-good`` finding of a run (rule, score, the board's best, the perfect value)."""
    found = next((f for f in flags if f.kind == "score"), None)
    if found is None:
        return None
    keys = ("score", "board_best", "perfect")
    return {"rule": found.rule, **{key: found.evidence.get(key) for key in keys}}


def too_good_text(integrity: dict[str, Any] | None) -> str:
    """``TOO GOOD (board best 0.9)`` / `` … cleared by ann`` for a run's line, or ``""``."""
    found = (integrity or {}).get("too_good")
    if not found:
        return ""
    text = f"TOO GOOD (board best {found.get('board_best'):g})"
    return text + cleared_text(integrity)


def cleared_text(integrity: dict[str, Any] | None) -> str:
    """`` CLEARED by ann at … (reason)`` for a run whose withheld medal a person cleared."""
    done = (integrity or {}).get("clearance")
    if not done:
        return ""
    return f" CLEARED by {done.get('by')} at {done.get('at')}: {done.get('reason')}"


def markdown_lines(runs: Sequence[dict[str, Any]]) -> list[str]:
    """The summary's section of scores too good to be true and cleared medals (summary runs)."""
    shown = [r for r in runs if (r.get("integrity") or {}).get("too_good") or _cleared(r)]
    if not shown:
        return []
    lines = [
        "## Too good to be true, and cleared medals",
        "",
        "| run | score | board's best | medal | clearance |",
        "|---|---|---|---|---|",
    ]
    for run in shown:
        integrity = run["integrity"]
        found = integrity.get("too_good") or {}
        medal = run.get("medal") or "-"
        if integrity.get("medal_withheld"):
            medal = f"withheld (earned {integrity.get('earned_medal')})"
        done = integrity.get("clearance") or {}
        clearance = f"{done.get('by')} at {done.get('at')}: {done.get('reason')}" if done else "-"
        cells = [
            str(run.get("test_id") or run.get("run_id")),
            "-" if run.get("score") is None else f"{run['score']:.5g}",
            "-" if found.get("board_best") is None else f"{found['board_best']:.5g}",
            medal,
            clearance,
        ]
        lines.append("| " + " | ".join(_cell(c) for c in cells) + " |")
    return [*lines, ""]


def _cleared(run: dict[str, Any]) -> bool:
    return bool((run.get("integrity") or {}).get("clearance"))


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


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
        "medals_cleared": sum(1 for r in checked if r.integrity and r.integrity.clearance),
        "too_good": sum(1 for r in checked if r.integrity and too_good_of(r.integrity.flags)),
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
        + (f", {section['medals_cleared']} cleared" if section["medals_cleared"] else "")
        + f"; mode {'/'.join(section['modes']) or 'report'}"
    ]
    for record in checked:
        assert record.integrity is not None
        for flag in record.integrity.flags:
            if severity_rank(flag.severity) >= severity_rank(SHOWN_FROM):
                lines.append(f"  {label(record)}: {flag.summary()}")
        if record.integrity.clearance:
            lines.append(f"  {label(record)}:{cleared_text(record.integrity.to_dict())}")
    lines += [f"  session: {flag.summary()}" for flag in session_flags]
    return lines


def allure_tags(record: RunRecord) -> list[str]:
    """``integrity:<kind>`` per flag kind of the run, plus ``integrity:withheld``."""
    report = record.integrity
    if report is None:
        return []
    tags = sorted({f"integrity:{f.kind}" for f in report.flags})
    tags += ["integrity:withheld"] if report.medal_withheld else []
    return tags + (["integrity:cleared"] if report.clearance else [])


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
