"""Deterministic rules over a run's evidence, code and logs.

- ``process``: a command line of the process audit matches a pattern of the policy.
- ``logs``: a line of the agent's output or logs matches a pattern of the policy.
- ``no-code``: CODE_DIR holds no source file, so nothing shows how the submission was made.
- ``literal-predictions``: the submission's rows appear verbatim in a source file or a log the
  agent brought or wrote (hand-written predictions), or in a stored data file while CODE_DIR
  holds no code (the submission was copied, not computed).
- ``outside-contract``: files written outside the contract paths (Docker's file-system diff).
- ``copy-out-capped``: the copy-out stopped at its total cap or entry count
  (:mod:`pytest_mlebench.sandbox.copy_budget`): the run folder holds only part of what was left.

Every function takes plain values and the run folder's files; nothing here runs the agent.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pytest_mlebench.integrity.filekinds import CODE_SUFFIXES, DATA_SUFFIXES, SOURCE_SUFFIXES
from pytest_mlebench.records.verdict import Flag
from pytest_mlebench.sandbox.bounded_read import text_lines
from pytest_mlebench.values.integrity_policy import Policy, first_match

MAX_TEXT_BYTES = 20 * 1024**2
MAX_LOG_FLAGS_PER_RULE = 1


def process_flags(processes: list[dict[str, Any]], policy: Policy) -> list[Flag]:
    """One flag per (rule, command line) of the audit that matches the policy."""
    flags = []
    for entry in processes:
        rule = first_match(policy.processes, entry["command"])
        if rule is None:
            continue
        flags.append(
            Flag(
                "process",
                rule.id,
                rule.severity,
                rule.reason,
                {
                    "command": entry["command"],
                    "first_seen_s": entry["first_seen"],
                    "last_seen_s": entry["last_seen"],
                },
            )
        )
    return flags


def text_files(folder: Path) -> Iterator[Path]:
    if folder.is_file():
        yield folder
        return
    if folder.is_dir():
        for path in sorted(folder.rglob("*")):
            if path.is_file() and not path.is_symlink() and path.stat().st_size <= MAX_TEXT_BYTES:
                yield path


def log_flags(log_paths: list[Path], policy: Policy) -> list[Flag]:
    """A flag per log rule whose pattern appears in the agent's output or logs (first line)."""
    flags: dict[str, Flag] = {}
    for path in (p for folder in log_paths for p in text_files(folder)):
        for number, line in enumerate(_lines(path), start=1):
            rule = first_match(policy.logs, line)
            if rule is None or rule.id in flags:
                continue
            flags[rule.id] = Flag(
                "logs",
                rule.id,
                rule.severity,
                rule.reason,
                {"file": f"{path.name}:{number}", "line": line[:300]},
            )
    return list(flags.values())


def _lines(path: Path) -> Iterator[str]:
    """The lines of the first :data:`MAX_TEXT_BYTES` of a file the agent left, each cut at
    :data:`~pytest_mlebench.sandbox.bounded_read.MAX_LINE_BYTES` (a sparse 5 GiB submission
    with no line break costs one chunk of memory)."""
    return text_lines(path, MAX_TEXT_BYTES)


def has_code(code_dir: Path) -> bool:
    return any(p.suffix.lower() in CODE_SUFFIXES for p in text_files(code_dir))


def no_code_flag(code_dir: Path, policy: Policy) -> Flag | None:
    if has_code(code_dir):
        return None
    return Flag(
        "rules",
        "no-code",
        policy.severity("rules", "no_code"),
        "CODE_DIR holds no source file: nothing shows how the submission was made; have the "
        "agent copy the code that made it (its scripts or notebooks: .py, .ipynb, .sh, .R, ...) "
        "into CODE_DIR before it ends (docs/agents.md, the contract table)",
        {"folder": "code/"},
    )


def submission_rows(submission: Path) -> list[str]:
    """The data rows of the submission's first :data:`MAX_TEXT_BYTES` (header left out),
    stripped, non-empty."""
    lines = _lines(submission)
    next(lines, None)
    return [row for row in (line.strip() for line in lines) if row]


def literal_flag(
    submission: Path, places: list[Path], code_present: bool, policy: Policy
) -> Flag | None:
    """The submission's rows found verbatim in a source file, or in stored data without code."""
    rows = submission_rows(submission)
    if not rows:
        return None
    need = max(
        min(len(rows), int(policy.number("rules", "literal_min_rows"))),
        int(len(rows) * policy.number("rules", "literal_min_fraction")),
    )
    wanted = set(rows)
    for path in (p for place in places for p in text_files(place)):
        if path.resolve() == submission.resolve():
            continue
        suffix = path.suffix.lower()
        is_data = suffix in DATA_SUFFIXES
        if (is_data and code_present) or not (is_data or suffix in SOURCE_SUFFIXES or not suffix):
            continue
        found = _rows_in(path, wanted)
        if found >= need:
            return Flag(
                "rules",
                "literal-predictions",
                policy.severity("rules", "literal_predictions"),
                "the submission's predictions appear verbatim in a file the agent brought or "
                "wrote" + (" while CODE_DIR holds no code" if is_data else "") + ": they were "
                "written down, not computed",
                {"file": str(path), "rows": f"{found} of {len(rows)} rows"},
            )
    return None


def _rows_in(path: Path, wanted: set[str]) -> int:
    """How many of ``wanted`` rows appear as (stripped) lines of ``path``."""
    seen = {line.strip() for line in _lines(path)}
    return len(wanted & seen)


def outside_contract_flag(changed: dict[str, Any] | None, policy: Policy) -> Flag | None:
    if not changed or not changed.get("count"):
        return None
    return Flag(
        "rules",
        "outside-contract",
        policy.severity("rules", "outside_contract_files"),
        f"{changed['count']} file(s) were written outside the contract paths",
        {"files": changed.get("paths", [])[:20]},
    )


def copy_out_flag(copy_out: dict[str, Any] | None, policy: Policy) -> Flag | None:
    """A flag when the run's copy-out stopped at a cap (the evidence's ``copy_out``)."""
    if not copy_out or not copy_out.get("capped"):
        return None
    return Flag(
        "rules",
        "copy-out-capped",
        policy.severity("rules", "copy_out_capped"),
        f"the copy-out stopped at its cap ({copy_out['capped']}); nothing more was written to "
        "the host, so the run folder holds only part of what the agent left",
        {
            "written_bytes": copy_out.get("written_bytes"),
            "omitted_count": copy_out.get("omitted_count"),
            "omitted": list(copy_out.get("omitted") or [])[:5],
        },
    )
