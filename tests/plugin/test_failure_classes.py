"""Failure classes and ``--mle-retries`` through the real plugin.

One session of the example project reaches the classes with real runs: a folder agent whose
behaviour depends on the run (competition, seed), and a named fake sandbox from the
``pytest_mlebench_make_sandbox`` hook whose start fails the way a broken engine does (a
``SandboxError``): once for toy-b (the retry then succeeds), always for toy-high (the run stays
``infra`` and leaves the rates). The agent crash of toy-a seed 1 is not tried again.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.plugin.conftest import ExampleProject
from tests.plugin.test_plugin import records

FLAKY_SANDBOX_CONFTEST = """
from pathlib import Path
from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.local import LocalSandbox

STARTS = Path("sandbox-starts.txt")


class FlakySandbox(LocalSandbox):
    \"\"\"A named fake sandbox: its engine fails toy-b's first start and every start of
    toy-high, as a lost engine or node would.\"\"\"

    backend = "flaky-sandbox"

    def start(self):
        subject = self.spec.subject
        with STARTS.open("a") as handle:
            handle.write(f"{subject}-s{self.spec.seed}\\n")
        tries = STARTS.read_text().splitlines().count(f"{subject}-s{self.spec.seed}")
        if subject == "toy-high" or (subject == "toy-b" and tries == 1):
            raise SandboxError(f"engine went away starting {subject} (try {tries})")
        super().start()


def pytest_mlebench_make_sandbox(spec, backend, settings):
    return FlakySandbox(spec)
"""

# toy-a: s0 copies the sample (valid, no medal), s1 crashes, s2 writes nothing, s3 writes a
# submission the grader refuses, s4 runs past the limit; toy-b's sample is perfect (gold).
AGENT = """
echo "$COMPETITION_ID-s$MLEBENCH_SEED" >> {calls}
case "$COMPETITION_ID-s$MLEBENCH_SEED" in
  toy-a-s1) echo "giving up: no model"; exit 3 ;;
  toy-a-s2) exit 0 ;;
  toy-a-s3) echo "id,wrong" > "$SUBMISSION_DIR/submission.csv" ;;
  toy-a-s4) sleep 30 ;;
  *) cp "$DATA_DIR/sample_submission.csv" "$SUBMISSION_DIR/submission.csv" ;;
esac
"""


def run_session(project: ExampleProject) -> pytest.RunResult:
    project.pytester.makeconftest(FLAKY_SANDBOX_CONFTEST)
    folder = project.root / "agents" / "classy"
    folder.mkdir(parents=True)
    (folder / "start.sh").write_text(AGENT.format(calls=project.root / "agent-calls.txt"))
    (folder / "config.yaml").write_text("classy:\n  start: start.sh\n")
    return project.run(
        "-m",
        "toys",
        "-k",
        "toy-a or s0",
        "--mle-seeds",
        "5",
        "--mle-agent",
        str(folder),
        "--mle-time-limit",
        "2",
        "--mle-retries",
        "2",
        "--alluredir",
        str(project.root / "allure"),
        "-p",
        "no:xdist",
    )


def by_run(project: ExampleProject) -> dict[str, dict[str, Any]]:
    return {f"{r['competition_id']}-s{r['seed']}": r for r in records(project)}


def test_each_class_is_reached_infra_is_retried_an_agent_crash_is_not(
    project: ExampleProject,
) -> None:
    result = run_session(project)
    runs = by_run(project)
    classes = {run: record["failure_class"] for run, record in runs.items()}
    assert classes == {
        "toy-a-s0": "valid_no_medal",
        "toy-a-s1": "agent_crash",
        "toy-a-s2": "no_submission",
        "toy-a-s3": "invalid_submission",
        "toy-a-s4": "timeout",
        "toy-b-s0": "medal",
        "toy-high-s0": "infra",
        "toy-missing-s0": None,  # skipped: not run, no class
    }
    # toy-b's engine failed once: tried again, the run then won its medal; the record is the
    # last attempt's and tells why the first failed.
    (first,) = runs["toy-b-s0"]["attempts"]
    assert (first["attempt"], first["failure_class"]) == (1, "infra")
    assert first["reason"].startswith("SandboxError: engine went away starting toy-b (try 1)")
    assert runs["toy-b-s0"]["outcome"] == "passed"
    # toy-high never started: 1 + 2 retries, then an infra record.
    assert [a["attempt"] for a in runs["toy-high-s0"]["attempts"]] == [1, 2]
    assert runs["toy-high-s0"]["reason"].endswith("(try 3)")
    starts = (project.root / "sandbox-starts.txt").read_text().splitlines()
    assert starts.count("toy-b-s0") == 2 and starts.count("toy-high-s0") == 3
    # The agent's own failures are never tried again: each run's agent started once.
    calls = (project.root / "agent-calls.txt").read_text().splitlines()
    assert sorted(calls) == sorted(
        run for run in classes if run.startswith("toy-a") or run == "toy-b-s0"
    )
    assert runs["toy-a-s1"]["attempts"] == [] and starts.count("toy-a-s1") == 1
    result.assert_outcomes(passed=2, failed=5, skipped=1)
    check_summary(project)
    check_reports(project, result)
    check_rerun_by_class(project)


def check_rerun_by_class(project: ExampleProject) -> None:
    """``--mle-rerun infra`` (a class) and ``timeout`` select exactly their runs."""
    summary = str(project.root / "reports" / "summary.json")
    for kind, selected in (("infra", "toy-high-s0"), ("timeout", "toy-a-s4")):
        agent = str(project.root / "agents" / "classy")
        args = ("--mle-seeds", "5", "--mle-agent", agent, "--co", "-q")
        again = project.run(*args, "--mle-rerun", kind, "--mle-from", summary)
        again.stdout.fnmatch_lines([f"*test_competition[[]{selected}[]]", "1/* tests collected*"])


def check_summary(project: ExampleProject) -> None:
    """The rates count 6 runs, not 7: toy-high (infra) is left out, and said to be."""
    summary = json.loads((project.root / "reports" / "summary.json").read_text())
    overall = next(iter(summary["agents"].values()))["overall"]
    assert (overall["runs"], overall["counted_runs"], overall["not_run"]) == (7, 6, 1)
    # Seed 0 ran toy-a (no medal), toy-b (gold) and toy-high (infra): 1 of 2, not 1 of 3.
    assert overall["metrics"]["any_medal"]["per_seed"]["0"] == pytest.approx(50.0)
    assert overall["excluded"]["runs"] == 1
    (why,) = overall["excluded"]["reasons"]
    assert (why["competition_id"], why["failure_class"], why["attempts"]) == (
        "toy-high",
        "infra",
        3,
    )
    assert why["reason"].startswith("SandboxError: engine went away")
    assert overall["failure_classes"] == {
        "medal": 1,
        "valid_no_medal": 1,
        "invalid_submission": 1,
        "no_submission": 1,
        "timeout": 1,
        "oom": 0,
        "agent_crash": 1,
        "infra": 1,
    }
    entries = {e["competition_id"]: e for e in summary["competitions"]}
    assert entries["toy-high"]["excluded"] == 1 and entries["toy-high"]["medal_rate"] is None
    assert entries["toy-b"]["medal_rate"] == 100.0
    (toy_b,) = entries["toy-b"]["runs"]
    assert (toy_b["failure_class"], toy_b["attempts"]) == ("medal", 2)


def check_reports(project: ExampleProject, result: pytest.RunResult) -> None:
    excluded = "1 run excluded from the rates (infra 1: toy-high s0 SandboxError: engine went away"
    result.stdout.fnmatch_lines(
        [
            "*toy-a * s0 -  * s1 agent_crash * s2 no_submission * s3 invalid_submission *"
            " s4 timeout * medals 0/5*",
            "*toy-high * s0 infra * medals 0/0*",
            f"*overall failure classes: medal 1, valid_no_medal 1, invalid_submission 1, "
            f"no_submission 1, timeout 1, agent_crash 1, infra 1; {excluded}*",
        ]
    )
    result.stdout.fnmatch_lines(["*mlebench: toy-b-s0 done after*gold, 2 attempts"])
    # the totals: 1 medal of the 6 runs that count (7 ran, toy-high is left out)
    result.stdout.fnmatch_lines(["*any medal 1 (16.7 %), 1 excluded (infra)"])
    result.stdout.fnmatch_lines(["*toy-a-s1*failed*class agent_crash*"])
    result.stdout.fnmatch_lines(["*mlebench: toy-a-s1 done after*, class agent_crash"])
    markdown = (project.root / "reports" / "summary.md").read_text()
    assert excluded in markdown
    assert "| toy-high | s0 infra |" in markdown
    page = (project.root / "reports" / "html" / "index.html").read_text()
    assert excluded in page and '<span class="class">infra</span>' in page
    allure = {}
    for path in (project.root / "allure").glob("*-result.json"):
        data = json.loads(path.read_text())
        labels = {label["name"]: label["value"] for label in data["labels"]}
        params = {param["name"]: param["value"] for param in data.get("parameters", [])}
        run = f"{labels['story']}-s{params['seed']}"
        allure[run] = (labels.get("failure_class"), params.get("attempts"))
    assert allure["toy-b-s0"] == ("medal", "'2'")
    assert allure["toy-high-s0"] == ("infra", "'3'")
    assert allure["toy-a-s1"] == ("agent_crash", None)


@pytest.mark.parametrize("value", ["-1", "two"])
def test_a_bad_retries_value_is_a_usage_error_naming_the_fix(
    project: ExampleProject, value: str
) -> None:
    result = project.run("--mle-retries", value, "--co")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [f"ERROR: invalid retries '{value}' from option --mle-retries: expected a whole number, 0*"]
    )
    assert "Traceback" not in result.stderr.str()


def test_records_written_before_classes_read_back_with_one(tmp_path: Path) -> None:
    from pytest_mlebench.records.run_record import read_records

    old = {
        "session_id": "s",
        "run_id": "r",
        "test_id": "t",
        "competition_id": "toy-a",
        "seed": 0,
        "agent": "dummy",
        "reason": None,
        "sandbox": "local",
        "isolated": False,
        "started_at": "2026-01-01T00:00:00+00:00",
        "finished_at": "2026-01-01T00:00:01+00:00",
        "version": 2,
    }
    lines = [
        {**old, "outcome": "error"},
        {**old, "outcome": "failed", "oom_killed": True, "exit_code": 137},
        {**old, "outcome": "skipped"},
    ]
    path = tmp_path / "results.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    classes = [(r.failure_class, r.attempts, r.counted) for r in read_records([path])]
    assert classes == [("infra", [], False), ("oom", [], True), (None, [], False)]
