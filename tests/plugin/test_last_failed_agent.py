"""``pytest --lf`` reruns benchmark failures with the agent that failed them, and its reports
cover the session it reruns (``pytest_mlebench.rerun_series``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.plugin.conftest import ExampleProject

AGENT_CONFIG = "sample-copier:\n  start: start.sh\n"
# copies the sample submission, as dummy does, under another name
AGENT_START = 'cp "$DATA_DIR/sample_submission.csv" "$SUBMISSION_DIR/submission.csv"\n'


@pytest.fixture
def agent_folder(project: ExampleProject) -> Path:
    folder = project.root / "sample-copier"
    folder.mkdir()
    (folder / "config.yaml").write_text(AGENT_CONFIG)
    (folder / "start.sh").write_text(AGENT_START)
    return folder


def run_cached(project: ExampleProject, *extra: str) -> pytest.RunResult:
    """A session with pytest's cache on (the project's default turns nothing off)."""
    return project.run("-m", "toys", "-k", "toy-a or toy-b", "--mle-require", "gold", *extra)


def records(project: ExampleProject) -> list[dict[str, object]]:
    path = project.root / "reports" / "results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_lf_without_an_agent_reruns_with_the_agent_of_the_session_it_reruns(
    project: ExampleProject, agent_folder: Path
) -> None:
    first = run_cached(project, "--mle-agent", str(agent_folder))
    first.assert_outcomes(passed=1, failed=1)
    again = run_cached(project, "--lf")
    again.assert_outcomes(failed=1)
    first_session = records(project)[0]["session_id"]
    again.stdout.fnmatch_lines(
        [f"mlebench: --lf reruns the failures of session {first_session} with its agent *"]
    )
    rerun = records(project)[-1]
    assert rerun["competition_id"] == "toy-a"
    assert rerun["agent"] == records(project)[0]["agent"] != "dummy"
    # the reports complete the session it reruns: toy-b is there with its earlier run
    summary = json.loads((project.root / "reports" / "summary.json").read_text())
    assert sorted(c["competition_id"] for c in summary["competitions"]) == ["toy-a", "toy-b"]
    assert len(summary["sessions"]) == 2
    # each session's own summary stays where a gate can find it
    kept = project.root / "reports" / "sessions" / str(first_session) / "summary.json"
    assert json.loads(kept.read_text())["sessions"] == [first_session]
    # pytest still remembers the failure, so the next --lf selects it alone
    third = run_cached(project, "--lf")
    third.assert_outcomes(failed=1)
    third.stdout.fnmatch_lines(["*rerun previous 1 failure*"])


def test_lf_with_an_unknown_agent_is_refused_naming_the_option(project: ExampleProject) -> None:
    run_cached(project).assert_outcomes(passed=1, failed=1)
    remembered = project.root / ".pytest_cache" / "v" / "mlebench" / "last_session"
    assert remembered.is_file()
    remembered.unlink()  # as a cache written by an older version leaves it
    again = run_cached(project, "--lf")
    assert again.ret == pytest.ExitCode.USAGE_ERROR
    again.stderr.fnmatch_lines(
        ["ERROR: pytest --lf reruns benchmark tests that failed*name it with --mle-agent NAME"]
    )
