"""What a session's reports describe: this session only, an HTML page, and sessions where nothing
ran (pytester subprocess runs of the real plugin on the example project)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.plugin.conftest import ExampleProject


def load(path: Path) -> Any:
    return json.loads(path.read_text())


def results_lines(project: ExampleProject) -> list[dict[str, Any]]:
    path = project.root / "reports" / "results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def mlebench_lines(result: pytest.RunResult) -> list[str]:
    """The lines of the ``mlebench results`` section, in order."""
    lines = result.stdout.lines
    start = next(i for i, line in enumerate(lines) if "mlebench results" in line)
    return [line for line in lines[start + 1 :] if not line.startswith("=")]


def test_the_report_describes_this_session_and_the_page_is_written(
    project: ExampleProject,
) -> None:
    project.run("-m", "toys", "-k", "toy-a").assert_outcomes(passed=1)  # e.g. the baseline agent
    second = project.run("-m", "toys", "-k", "toy-b")
    second.assert_outcomes(passed=1)
    reports = project.root / "reports"
    summary = load(reports / "summary.json")
    assert [c["competition_id"] for c in summary["competitions"]] == ["toy-b"]
    assert len(summary["sessions"]) == 1 and summary["merge"]["records_read"] == 1
    assert len(results_lines(project)) == 2  # the results file still holds both sessions
    assert "toy-a" not in (reports / "summary.md").read_text()
    grading = load(reports / "mlebench" / "grading_report.json")
    assert grading["total_runs"] == 1
    # the HTML page, beside summary.md, named in the last line with the command that re-makes it
    page = reports / "html" / "index.html"
    assert "toy-b" in page.read_text() and "toy-a" not in page.read_text()
    assert mlebench_lines(second)[-1] == (
        f"html: {page} (make it again: mlebench report {reports / 'summary.json'} "
        f"--html {reports / 'html'})"
    )
    assert not any(line.startswith("merge: ") for line in second.stdout.lines)


def test_a_session_where_everything_was_skipped_adds_nothing_and_says_so(
    project: ExampleProject,
) -> None:
    project.run("-m", "toys", "-k", "toy-a").assert_outcomes(passed=1)
    before = (project.root / "reports" / "summary.json").read_text()
    skipped = project.run("-m", "toys", "-k", "toy-missing")
    skipped.assert_outcomes(skipped=1)
    assert skipped.ret == pytest.ExitCode.OK  # a plain skip keeps pytest's meaning
    assert [r["competition_id"] for r in results_lines(project)] == ["toy-a"]
    assert (project.root / "reports" / "summary.json").read_text() == before
    lines = mlebench_lines(skipped)
    assert lines[-1].startswith(
        "mlebench: NO RUN HAPPENED: the one selected run was skipped (toy-missing: cannot "
        "prepare its data: no_such_mod_mlebench is not installed"
    )  # the skip's own reason, whatever it is (missing data, no Docker for an image build, …)
    assert lines[-1].endswith("); nothing was recorded and no report was written")
    assert sum("NO RUN HAPPENED" in line for line in skipped.stdout.lines) == 1
    assert not any("merge: duplicate" in line for line in skipped.stdout.lines)


def test_the_gates_fail_when_no_run_happened(project: ExampleProject) -> None:
    required = project.run("-m", "toys", "-k", "toy-missing", "--mle-require", "valid")
    required.assert_outcomes(skipped=1)
    assert required.ret == pytest.ExitCode.TESTS_FAILED
    required.stdout.fnmatch_lines(
        [
            "GATE FAILED: --mle-require valid: no run happened (every selected run was "
            "skipped), so none reached it",
            "mlebench: NO RUN HAPPENED: *",
        ]
    )
    project.run("-m", "toys", "-k", "toy-a").assert_outcomes(passed=1)
    baseline = project.root / "baseline.json"
    shutil.copy(project.root / "reports" / "summary.json", baseline)
    compared = project.run("-m", "toys", "-k", "toy-missing", "--mle-baseline", str(baseline))
    compared.assert_outcomes(skipped=1)
    assert compared.ret == pytest.ExitCode.TESTS_FAILED
    compared.stdout.fnmatch_lines(
        [
            "GATE FAILED: no run happened (every selected run was skipped): nothing to compare "
            f"with {baseline}",
            "mlebench: NO RUN HAPPENED: *",
        ]
    )
