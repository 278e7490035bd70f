"""A run's record made from plain facts (records.build): skips, sandboxes, the bridge warning."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from pytest_mlebench.definition import load_competition
from pytest_mlebench.records.build import (
    RunContext,
    keep_run_files,
    make_record,
    write_grade_file,
)
from pytest_mlebench.records.grade_report import GradeReport
from pytest_mlebench.records.run_record import read_records
from tests.factories import write_competition

CONTEXT = RunContext(
    session_id="abc",
    agent="dummy",
    worker="gw1",
    backend="docker",
    network="none",
    network_mode="none",
    bridge_warning="the sandbox is NOT isolated",
)


@dataclass(frozen=True)
class FakeSandbox:
    """A fake peer: the facts a sandbox (or a remote one's summary) hands to the record."""

    backend: str = "custom"
    isolated: bool = True
    image: str | None = "img:1"

    def egress_summary(self) -> dict[str, Any] | None:
        return {"mode": "allow", "requests": 3}


@dataclass(frozen=True)
class Command:
    exit_code: int | None = 0
    timed_out: bool = False
    wall_seconds: float = 1.5
    output_tail: str = ""
    cpu_seconds: float | None = 0.5
    peak_memory_bytes: int | None = 1024
    oom_killed: bool = False


def test_a_skip_names_the_session_backend_and_the_competition(tmp_path: Path) -> None:
    competition = load_competition(write_competition(tmp_path, "toy"), frozenset({"b", "a"}))
    skip = make_record(
        CONTEXT, competition, test_id="t[toy]", seed=1, outcome="skipped", reason="x"
    )
    assert (skip.sandbox, skip.isolated, skip.worker, skip.agent) == (
        "docker",
        True,
        "gw1",
        "dummy",
    )
    assert skip.splits == ["a", "b"] and skip.run_id.startswith("toy-s1-")
    assert (skip.wall_seconds, skip.exit_code, skip.egress, skip.image) == (None, None, None, None)
    assert not skip.ran and skip.medal is None


def test_a_sandbox_and_a_command_fill_their_fields_and_bridge_is_never_isolated(
    tmp_path: Path,
) -> None:
    competition = load_competition(write_competition(tmp_path, "toy"))
    allow = replace(CONTEXT, network="allow:pypi.org", network_mode="allow")
    made = make_record(
        allow, competition, test_id="t", seed=0, outcome="passed", reason=None,
        exec_result=Command(), sandbox=FakeSandbox(),
    )  # fmt: skip
    assert (made.sandbox, made.isolated, made.image) == ("custom", True, "img:1")
    assert (made.wall_seconds, made.cpu_seconds, made.peak_memory_bytes) == (1.5, 0.5, 1024)
    assert made.egress == {"mode": "allow", "requests": 3} and made.network == "allow:pypi.org"
    bridge = replace(CONTEXT, network="bridge", network_mode="bridge")
    open_run = make_record(
        bridge, competition, test_id="t", seed=0, outcome="passed", reason=None,
        sandbox=FakeSandbox(),
    )  # fmt: skip
    assert not open_run.isolated
    assert open_run.egress == {
        "mode": "bridge", "isolated": False, "warning": "the sandbox is NOT isolated"
    }  # fmt: skip


def test_the_run_keeps_its_grade_and_record_files(tmp_path: Path) -> None:
    competition = load_competition(write_competition(tmp_path / "defs", "toy"))
    grade = GradeReport.invalid(
        "toy", "no file", None, lower_is_better=False, submission_exists=False,
        submission_path="s.csv", created_at="now",
    )  # fmt: skip
    record = make_record(
        CONTEXT, competition, test_id="t", seed=0, outcome="failed", reason="no", report=grade
    )
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    assert json.loads(write_grade_file(run_dir, grade).read_text())["submission_exists"] is False
    keep_run_files(record, run_dir, tmp_path / "reports" / "results.jsonl")
    assert json.loads((run_dir / "record.json").read_text())["run_id"] == record.run_id
    assert list(read_records([tmp_path / "reports" / "results.jsonl"])) == [record]
