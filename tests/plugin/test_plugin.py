"""The real plugin on a tiny example project (pytester subprocess runs)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from pytest_mlebench.records.mlebench_grade import GRADE_KEYS as MLEBENCH_KEYS
from tests.factories import toy_config, write_competition
from tests.plugin.conftest import ExampleProject

GOLDEN_HELP = Path(__file__).with_name("golden_help.txt")


def records(project: ExampleProject) -> list[dict[str, object]]:
    path = project.root / "reports" / "results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_selection_by_split_marker(project: ExampleProject) -> None:
    result = project.run("-m", "toys", "--collect-only", "-q")
    result.stdout.fnmatch_lines(["*test_competition[[]toy-a[]]", "*test_competition[[]toy-b[]]"])
    assert "digits" not in result.stdout.str()


def test_selection_by_complexity_and_modality(project: ExampleProject) -> None:
    result = project.run("-m", "toys and complexity(level='high')", "--collect-only", "-q")
    result.stdout.fnmatch_lines(["*test_competition[[]toy-high[]]", "1/* tests collected*"])
    result = project.run("-m", "toys and text", "--collect-only", "-q")
    result.stdout.fnmatch_lines(["*test_competition[[]toy-high[]]"])


def test_seeds_make_suffixed_ids(project: ExampleProject) -> None:
    result = project.run("-m", "toys", "--mle-seeds", "2", "--collect-only", "-q")
    result.stdout.fnmatch_lines(["*[[]toy-a-s0[]]", "*[[]toy-a-s1[]]"])


def test_dummy_agent_end_to_end(project: ExampleProject) -> None:
    result = project.run("-m", "toys", "-k", "toy-a or toy-b", "-v")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(
        [
            "*mlebench: agent dummy, sandbox local*",
            "*mlebench WARNING: sandbox: local*no isolation*",
            "*mlebench results*",
            "toy-a*passed*score 0.5*medal none*",
            "toy-b*passed*score 1*medal gold*",
            "2 runs: 2 passed*any medal 1 (50.0 %)*",
        ]
    )
    by_id = {r["competition_id"]: r for r in records(project)}
    assert by_id["toy-b"]["grade"]["award"]["medal"] == "gold"  # type: ignore[index]
    assert by_id["toy-a"]["grade"]["valid_submission"] is True  # type: ignore[index]
    assert by_id["toy-a"]["validation_calls"][0]["valid"] is True  # type: ignore[index]
    assert by_id["toy-a"]["sandbox"] == "local"
    assert by_id["toy-a"]["isolated"] is False
    assert by_id["toy-a"]["resources"]["pids"] == 4096  # type: ignore[index]
    run_dir = Path(str(by_id["toy-a"]["run_dir"]))
    assert (run_dir / "submission.csv").is_file()
    # grade.json is in mle-bench's form, next to the record's own form of the same grade.
    grade = json.loads((run_dir / "grade.json").read_text())
    assert list(grade) == [*MLEBENCH_KEYS, "invalid_reason"]
    assert (grade["score"], grade["any_medal"], grade["valid_submission"]) == (0.5, False, True)
    thresholds = by_id["toy-a"]["grade"]["thresholds"]  # type: ignore[index]
    assert grade["median_threshold"] == thresholds["median"]  # type: ignore[index]


def test_gate_option_fails_below_the_gate(project: ExampleProject) -> None:
    result = project.run("-m", "toys", "-k", "toy-a or toy-b", "--mle-require", "bronze")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*toy-a*score 0.5 earns no medal; bronze needs 0.7*"])


def test_bad_gate_value_is_a_usage_error(project: ExampleProject) -> None:
    result = project.run("--mle-require", "platinum")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*invalid choice: 'platinum'*"])


def test_bad_seeds_from_environment_names_the_source(
    project: ExampleProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLEBENCH_SEEDS", "zero")
    result = project.run("-m", "toys")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [
            "ERROR: invalid seeds 'zero' from environment variable MLEBENCH_SEEDS: "
            "expected a positive whole number"
        ]
    )


def test_unprepared_data_is_skipped_with_the_command(project: ExampleProject) -> None:
    result = project.run("-m", "toys", "-k", "toy-missing", "-rs")
    result.assert_outcomes(skipped=1)
    result.stdout.fnmatch_lines(
        ["*no_such_mod_mlebench*mlebench prepare -c toy-missing --data-dir*"]
    )
    # nothing ran: the session keeps no record of it (docs/reports.md)
    assert records(project) == []


@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["one-process", "xdist"])
def test_unknown_agent_is_one_usage_error_before_any_test(
    project: ExampleProject, workers: tuple[str, ...]
) -> None:
    result = project.run("-m", "toys", "--mle-agent", "nobody", *workers)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    errors = [line for line in result.stderr.lines if line.startswith("ERROR:")]
    assert errors == [
        "ERROR: invalid agent 'nobody' from option --mle-agent: unknown agent 'nobody': "
        "built-in agents are baseline, dummy, aide:MODEL, mini-swe:MODEL ('mlebench agents' "
        "describes them); "
        "or pass the path of a folder with config.yaml (see docs/agents.md)"
    ]
    assert "test_competition" not in result.stdout.str()
    assert not (project.root / "reports" / "results.jsonl").exists()
    assert project.prepare_calls() == []


def test_xdist_prepares_each_competition_once(project: ExampleProject) -> None:
    result = project.run("-m", "toys", "-k", "toy-a or toy-b", "-n", "2", "--mle-seeds", "3")
    result.assert_outcomes(passed=6)
    assert Counter(project.prepare_calls()) == {"toy-a": 1, "toy-b": 1}
    assert len(records(project)) == 6
    assert len({r["session_id"] for r in records(project)}) == 1
    result.stdout.fnmatch_lines(["6 runs: 6 passed*"])


def test_last_failed_reruns_only_failures(project: ExampleProject) -> None:
    first = project.run("-m", "toys", "-k", "toy-a or toy-b", "--mle-require", "gold")
    first.assert_outcomes(passed=1, failed=1)
    again = project.run("-m", "toys", "-k", "toy-a or toy-b", "--mle-require", "gold", "--lf")
    again.assert_outcomes(failed=1)
    again.stdout.fnmatch_lines(["*rerun previous 1 failure*", "toy-a*failed*"])
    assert "toy-b" not in again.stdout.str()


def test_help_section_matches_golden(
    project: ExampleProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    result = project.pytester.runpytest_subprocess("--help")
    text = result.stdout.str()
    start = text.index("pytest-mlebench:")
    end = text.index("\n\n", start)
    section = "\n".join(line.rstrip() for line in text[start:end].splitlines()) + "\n"
    section = section.replace(str(Path.home()), "~")
    # After an intended change of the options, paste the new section into golden_help.txt.
    assert section == GOLDEN_HELP.read_text()


HOOK_CONFTEST = '''
import json
from pytest_mlebench.sandbox.interface import ExecResult

class FakeAgent:
    """A named fake agent: writes the right answer for toy-b without looking at anything."""
    name = "fake-hook-agent"
    privileged = False

    def run(self, sandbox, task):
        return sandbox.exec(
            [sandbox.python, "-c",
             "import os, shutil; shutil.copy(os.environ['DATA_DIR'] + '/sample_submission.csv',"
             " os.environ['SUBMISSION_DIR'] + '/submission.csv')"],
            timeout=task.time_limit, log_path=task.log_path,
        )

def pytest_mlebench_make_agent(name, settings):
    with open("made.txt", "a") as handle:
        handle.write(name + "\\n")
    return FakeAgent() if name == "fake" else None

def pytest_mlebench_graded(record):
    with open("graded.jsonl", "a") as handle:
        seen = {"id": record.competition_id, "agent": record.agent, "medal": record.grade.medal}
        handle.write(json.dumps(seen) + "\\n")
'''


def test_user_hooks_make_the_agent_once_and_see_each_record(project: ExampleProject) -> None:
    project.pytester.makeconftest(HOOK_CONFTEST)
    result = project.run("-m", "toys", "-k", "toy-a or toy-b", "--mle-agent", "fake")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*mlebench: agent fake-hook-agent, sandbox local*"])
    assert (project.root / "made.txt").read_text().splitlines() == ["fake"]  # once, not per test
    graded = [json.loads(line) for line in (project.root / "graded.jsonl").read_text().splitlines()]
    # the record names the agent the hook made, not the --mle-agent text that asked for it
    assert graded == [
        {"id": "toy-a", "agent": "fake-hook-agent", "medal": None},
        {"id": "toy-b", "agent": "fake-hook-agent", "medal": "gold"},
    ]
    assert {r["agent"] for r in records(project)} == {"fake-hook-agent"}


def test_the_hook_is_asked_before_the_built_ins(project: ExampleProject) -> None:
    """A hook may take a built-in's name; the built-in is then not loaded."""
    project.pytester.makeconftest(HOOK_CONFTEST.replace('name == "fake"', 'name == "dummy"'))
    result = project.run("-m", "toys", "-k", "toy-b", "--mle-agent", "dummy")
    result.assert_outcomes(passed=1)
    graded = (project.root / "graded.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in graded] == [
        {"id": "toy-b", "agent": "fake-hook-agent", "medal": "gold"}
    ]
    assert {r["agent"] for r in records(project)} == {"fake-hook-agent"}


ENVIRONMENT_CONFTEST = """
def pytest_mlebench_update_environment(environment):
    environment["team"] = "vision"
    environment["agent"] = environment["agent"] + " (tuned)"
    del environment["platform"]
"""


def test_user_hook_adds_and_changes_the_reported_environment(project: ExampleProject) -> None:
    project.pytester.makeconftest(ENVIRONMENT_CONFTEST)
    alluredir = project.root / "allure-results"
    result = project.run("-m", "toys", "-k", "toy-b", "--alluredir", str(alluredir))
    result.assert_outcomes(passed=1)
    lines = (alluredir / "environment.properties").read_text().splitlines()
    assert "team = vision" in lines  # added by the hook
    assert "agent = dummy (tuned)" in lines  # changed by the hook
    assert not any(line.startswith("platform = ") for line in lines)  # removed by the hook
    assert "sandbox.backend = local" in lines  # the harness's own entries stay


WRITER_CONFTEST = """
import json


class MedalsWriter:
    def write(self, report):
        path = report.out_dir / "medals.json"
        medals = {r.competition_id: r.medal for r in report.records}
        path.write_text(json.dumps(medals))
        return [f"medals: {path}"]


def pytest_mlebench_report_writers(config):
    return [MedalsWriter()]
"""


def test_a_user_report_writer_runs_at_the_session_end(project: ExampleProject) -> None:
    """A writer from the report-writers hook gets the session's report, after the built-ins."""
    project.pytester.makeconftest(WRITER_CONFTEST)
    result = project.run("-m", "toys", "-k", "toy-b")
    result.assert_outcomes(passed=1)
    written = project.root / "reports" / "medals.json"
    assert json.loads(written.read_text()) == {"toy-b": "gold"}
    lines = result.stdout.lines
    assert any(line.startswith("medals: ") for line in lines)
    html = next(i for i, line in enumerate(lines) if line.startswith("html: "))
    assert html < next(i for i, line in enumerate(lines) if line.startswith("medals: "))


def test_a_folder_agent_is_recorded_by_its_id(project: ExampleProject) -> None:
    folder = project.root / "agents" / "copier"
    folder.mkdir(parents=True)
    (folder / "start.sh").write_text(
        'cp "$DATA_DIR/sample_submission.csv" "$SUBMISSION_DIR/submission.csv"\n'
    )
    (folder / "config.yaml").write_text("copycat:\n  start: start.sh\n")
    result = project.run("-m", "toys", "-k", "toy-a", "--mle-agent", str(folder))
    result.assert_outcomes(passed=1)
    assert [r["agent"] for r in records(project)] == ["copycat"]


def test_known_issues_select_and_deselect_competitions(project: ExampleProject) -> None:
    config = toy_config("toy-leak", known_issues=[{"kind": "leak", "text": "ids give it away"}])
    write_competition(project.root / "defs", "toy-leak", config=config)
    # "not kaggle": the shipped Kaggle competitions with a leak (seti's old_leaky_data) stay out
    leaky = project.run("--co", "-q", "-m", "leaky and not lite and not kaggle")
    leaky.stdout.fnmatch_lines(["*test_competition[[]toy-leak[]]", "1/* tests collected*"])
    kept = project.run("--co", "-q", "-m", "not leaky")
    assert "toy-leak" not in kept.stdout.str() and "toy-a" in kept.stdout.str()


SANDBOX_HOOK_CONFTEST = """
from pathlib import Path
from pytest_mlebench.sandbox.local import LocalSandbox

EVENTS = Path("sandbox-events.txt")


def note(line):
    with EVENTS.open("a") as handle:
        handle.write(line + "\\n")


class HookSandbox(LocalSandbox):
    backend = "hook-sandbox"
    isolated = True

    def start(self):
        rendered = [p.read_text() for p in Path("reports/runs").glob("*/instructions.md")]
        fits = all(self.paths.data in text for text in rendered)
        note(f"start rendered={len(rendered)} paths={fits} pids={self.spec.limits.resources.pids}")
        super().start()

    def copy_in(self, source, destination):
        note(f"copy_in {Path(destination).name}")
        super().copy_in(source, destination)


def pytest_mlebench_make_sandbox(spec, backend, settings):
    return HookSandbox(spec)
"""


def test_sandbox_from_the_hook_is_the_one_recorded(project: ExampleProject) -> None:
    project.pytester.makeconftest(SANDBOX_HOOK_CONFTEST)
    result = project.run("-m", "toys", "-k", "toy-b", "--mle-pids", "300")
    result.assert_outcomes(passed=1)
    (record,) = records(project)
    assert (record["sandbox"], record["isolated"]) == ("hook-sandbox", True)
    assert record["resources"]["pids"] == 300  # type: ignore[index]
    events = (project.root / "sandbox-events.txt").read_text().splitlines()
    # Rendered for this sandbox's paths before it started; copied in once, first thing.
    assert events[0] == "start rendered=1 paths=True pids=300"
    assert events[1] == "copy_in instructions.md"
    assert sum(line == "copy_in instructions.md" for line in events) == 1


def test_an_agent_dockerfile_is_ignored_on_the_local_backend_and_the_header_says_so(
    project: ExampleProject,
) -> None:
    from tests.wheels import agent_folder

    lock = "mlimage-probe==1.0 --hash=sha256:" + "a" * 64 + "\n"
    folder = agent_folder(project.root / "agent", lock, module="mlimage_probe")
    (folder / "start.sh").write_text(
        'cp "$DATA_DIR/sample_submission.csv" "$SUBMISSION_DIR/submission.csv"\n'
    )
    result = project.run("-m", "toys", "-k", "toy-a", "--mle-agent", str(folder))
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(
        ["*mlebench WARNING: agent probe's Dockerfile is ignored with the local backend*"]
    )
    assert records(project)[0]["image"] is None


def test_a_harness_error_shows_its_message_not_a_traceback(project: ExampleProject) -> None:
    # The local backend refuses an allow-list per run (a SandboxError naming the fix).
    args = ("-k", "toy-a", "--mle-network", "allow:example.com")
    result = project.run(*args)
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    result.stdout.fnmatch_lines(
        ["SandboxError: *the local backend cannot keep an egress allow-list*", "*--tb=long*"]
    )
    assert "def start" not in out and "local.py:" not in out
    again = project.run(*args, "--tb=long")
    again.assert_outcomes(failed=1)
    assert "def start" in again.stdout.str()


def test_a_built_medium_competition_is_selected_by_its_complexity(
    project: ExampleProject,
) -> None:
    defs = project.root / "defs"
    write_competition(
        defs,
        "toy-medium",
        config=toy_config("toy-medium", complexity="medium"),
        splits={"medium": ["toy-medium"]},
    )
    result = project.run("-m", "complexity(level='medium')", "--collect-only", "-q")
    result.stdout.fnmatch_lines(["*test_competition[[]toy-medium[]]"])
    result = project.run("-m", "medium", "--collect-only", "-q")
    listed = {
        line.split("[", 1)[1].rstrip("]")
        for line in result.stdout.lines
        if "test_competition[" in line
    }
    from pytest_mlebench.registry import BUILTIN_COMPETITIONS_DIR, read_id_list

    medium = set(read_id_list(BUILTIN_COMPETITIONS_DIR / "splits" / "medium.txt"))
    assert "toy-medium" in listed
    assert listed - {"toy-medium"} <= medium  # the built-in Medium competitions, nothing else
