"""The table of checks: docs/integrity.md lists exactly the code's checks and rules, the runs
report every check of the table by name, and no check raises a rule it does not declare."""

from __future__ import annotations

import re
import time
from pathlib import Path

from pytest_mlebench.integrity.checks import (
    ALL_CHECKS,
    RUN_CHECKS,
    CheckContext,
    CheckInput,
    check_run,
    run_check,
)
from pytest_mlebench.integrity.run_evidence import Evidence
from pytest_mlebench.values.integrity_policy import load_policy

DOC = Path(__file__).resolve().parents[2] / "docs" / "integrity.md"
SECTION = "## Checks after the run"


def documented_checks(text: str) -> dict[str, set[str]]:
    """``check`` → its ``kind/rule`` entries, from the table that opens the section."""
    lines = text[text.index(SECTION) :].splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| check |"))
    table: dict[str, set[str]] = {}
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = line.split("|")
        [check] = re.findall(r"`([^`]+)`", cells[1])
        table.setdefault(check, set()).update(re.findall(r"`([^`]+)`", cells[2]))
    return table


def declared(rules: tuple[str, ...], flag: str) -> bool:
    """Whether ``kind/rule`` is one of ``rules`` (``kind/<rule>`` takes any rule of the kind)."""
    kind = flag.split("/")[0]
    return flag in rules or f"{kind}/<rule>" in rules


def test_the_documented_table_is_the_code_s_table() -> None:
    code = {check.name: set(check.rules) for check in ALL_CHECKS}
    assert documented_checks(DOC.read_text("utf-8")) == code


def test_a_run_reports_every_check_of_the_table_by_name(tmp_path: Path) -> None:
    report = check_run(Evidence(), tmp_path, [], CheckContext(load_policy()), None)
    assert list(report.checks) == [check.name for check in RUN_CHECKS]
    assert report.checks["watermark"] == "skipped: no sandbox_started in the evidence"
    assert report.checks["logs"] == "ran" and report.checks["validator-use"] == "ran"


def flagged_run(run_dir: Path) -> CheckInput:
    """A run that trips most checks: pre-made files, a forged inventory, an editor, a download
    in the log, rows typed into the log, no code, a capped copy-out, a refused host, 100
    refused validator requests, a file written outside the contract."""
    (run_dir / "logs").mkdir(parents=True)
    rows = [f"{n},{n % 2}" for n in range(10)]
    (run_dir / "submission.csv").write_text("id,label\n" + "\n".join(rows) + "\n")
    (run_dir / "agent.log").write_text("Downloading https://example.com/w.bin\n" + "\n".join(rows))
    now = time.time()
    old = {"mtime": now - 3600}
    evidence = Evidence(
        sandbox_started=now,
        inventory={
            "submission": {**old, "size": 1, "sha256": "0" * 64},
            "code": [{"path": "/home/code/a.py", **old}],
            "copies": [{"path": "/opt/answers.csv", **old}],
        },
        process_audit={"processes": [{"command": "vim a.py", "first_seen": 1, "last_seen": 2}]},
        outside_contract={"count": 1, "paths": ["/etc/passwd.new"]},
        copy_out={"capped": "1 GiB in all", "written_bytes": 1, "omitted": [], "omitted_count": 3},
        egress={"mode": "allow", "allowed_hosts": [], "denied": {"x.example": 2}},
        validator_refused=100,
    )
    return CheckInput(evidence, run_dir, [], CheckContext(load_policy()))


def test_no_check_raises_a_rule_it_does_not_declare(tmp_path: Path) -> None:
    run = flagged_run(tmp_path / "run")
    raised: set[str] = set()
    for check in RUN_CHECKS:
        flags, status = run_check(check, run)
        assert not status.startswith("error"), (check.name, status)
        found = {f"{flag.kind}/{flag.rule}" for flag in flags}
        assert all(declared(check.rules, flag) for flag in found), (check.name, found)
        raised |= found
    assert raised >= {
        "watermark/pre-made-submission",
        "watermark/submission-before-start",
        "watermark/code-before-start",
        "watermark/inventory-mismatch",
        "process/editor",
        "logs/external-download",
        "rules/no-code",
        "rules/literal-predictions",
        "rules/outside-contract",
        "rules/copy-out-capped",
        "rules/network-attempt",
        "validator-use/heavy-use",
    }
