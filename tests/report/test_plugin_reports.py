"""The reporting side of the real plugin on the example project (pytester subprocess runs)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.records.mlebench_grade import mlebench_report
from pytest_mlebench.records.run_record import RunRecord
from tests.plugin.conftest import ExampleProject


def load(path: Path) -> Any:
    return json.loads(path.read_text())


def test_session_end_writes_summary_and_mlebench_files_under_xdist(
    project: ExampleProject, capsys: pytest.CaptureFixture[str]
) -> None:
    result = project.run(
        "-m", "toys", "-k", "toy-a or toy-b or toy-missing", "-n", "2", "--mle-seeds", "2"
    )
    result.assert_outcomes(passed=4, skipped=2)
    reports = project.root / "reports"
    summary = load(reports / "summary.json")
    overall = summary["agents"]["dummy"]["overall"]
    assert (overall["competitions"], overall["runs"], overall["not_run"]) == (2, 4, 2)
    toys = summary["agents"]["dummy"]["splits"]["toys"]
    assert toys["metrics"]["any_medal"] == {
        "mean": 50.0, "sem": 0.0, "ci95": [50.0, 50.0], "n": 2, "per_seed": {"0": 50.0, "1": 50.0}
    }  # fmt: skip
    assert toys["pass_at_k"] == {
        "1": {"value": 50.0, "competitions": 2},
        "2": {"value": 50.0, "competitions": 2},
    }
    assert summary["merge"]["duplicates"] == [] and summary["merge"]["missing_seeds"] == []
    grading = load(reports / "mlebench" / "grading_report.json")
    assert (grading["total_runs"], grading["total_medals"], grading["total_valid_submissions"]) == (
        4, 2, 4,
    )  # fmt: skip
    stdout = result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "*mlebench results*",
            "medal table:",
            "  toy-a * s0 -  * s1 - * medals 0/2  percentile 35.0",
            "  toy-b * s0 gold * s1 gold * medals 2/2  percentile 95.0",
            "  split toys: 2 competitions, 4 runs (2 not run); any medal 50.0 ± 0.0 %*",
            f"summary: {reports / 'summary.json'} (4 runs, 2 not run, from 1 session(s)*",
        ]
    )
    # live progress comes from the controller only, one line per state change
    assert stdout.count("mlebench: toy-b-s1 agent running (limit 01:00)") == 1
    assert "mlebench: toy-b-s1 done after" in stdout and ", gold" in stdout
    assert "mlebench: toy-missing-s0 not run (skipped)" in stdout

    # the original's bulk format regrades to the same totals
    out = project.root / "regrade"
    args = [
        "--competitions-dir",
        str(project.root / "defs"),
        "--data-dir",
        str(project.root / "data"),
    ]
    code = main(
        ["grade", *args, "--submission", str(reports / "mlebench" / "submission.jsonl"),
         "--output-dir", str(out)]
    )  # fmt: skip
    capsys.readouterr()
    assert code == 0
    regraded = load(out / "grading_report.json")
    assert (regraded["total_runs"], regraded["total_medals"]) == (4, 2)


def test_rerun_selects_exactly_the_failed_pairs_and_merges_without_double_counting(
    project: ExampleProject,
) -> None:
    first = project.run(
        "-m", "toys", "-k", "toy-a or toy-b", "--mle-seeds", "2", "--mle-require", "gold"
    )
    first.assert_outcomes(passed=2, failed=2)
    summary_path = project.root / "reports" / "summary.json"
    saved = project.root / "elsewhere.json"  # a summary copied from another machine
    shutil.copy(summary_path, saved)
    rerun = ("--mle-seeds", "2", "--mle-require", "gold", "--mle-rerun", "failed", "--mle-from")
    again = project.run(*rerun, str(saved), "-v")
    again.assert_outcomes(failed=2)
    again.stdout.fnmatch_lines(
        [
            f"mlebench: rerun failed from {saved}: 2 run(s) selected",
            "*collected * items / * deselected / 2 selected",
        ]
    )
    ran = {line.split("::")[-1].split()[0] for line in again.stdout.lines if " FAILED" in line}
    assert ran == {"test_competition[toy-a-s0]", "test_competition[toy-a-s1]"}
    # the same selection on xdist workers, from the results file this time
    results = project.root / "reports" / "results.jsonl"
    on_workers = project.run(*rerun, str(results), "-n", "2")
    on_workers.assert_outcomes(failed=2)
    summary = load(summary_path)
    assert (summary["merge"]["records_read"], summary["merge"]["records_used"]) == (8, 4)
    duplicates = summary["merge"]["duplicates"]
    assert {(d["competition_id"], d["seed"], len(d["superseded_run_ids"])) for d in duplicates} == {
        ("toy-a", 0, 2), ("toy-a", 1, 2),
    }  # fmt: skip
    assert summary["agents"]["dummy"]["overall"]["runs"] == 4
    assert len(summary["sessions"]) == 2  # sessions whose records were kept


def test_rerun_needs_a_file_with_the_same_agent(project: ExampleProject) -> None:
    project.run("-m", "toys", "-k", "toy-a").assert_outcomes(passed=1)
    summary = str(project.root / "reports" / "summary.json")
    result = project.run("--mle-rerun", "failed", "--mle-from", summary, "--mle-agent", "baseline")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*has no runs of agent 'baseline' (it has: dummy)*"])
    result = project.run("--mle-rerun", "flaky", "--mle-from", summary)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*invalid rerun 'flaky' from option --mle-rerun: choose from*"])


def test_rate_drop_gate_fails_the_session_on_a_drop_and_passes_within_the_allowance(
    project: ExampleProject,
) -> None:
    project.run("-m", "toys", "-k", "toy-a or toy-b").assert_outcomes(passed=2)
    baseline = project.root / "baseline.json"
    shutil.copy(project.root / "reports" / "summary.json", baseline)  # any medal 50 %

    def gated(*extra: str) -> pytest.RunResult:
        new_results = str(project.root / "new" / "results.jsonl")
        return project.run(
            "-m", "toys", "-k", "toy-a", "--mle-results", new_results,
            "--mle-baseline", str(baseline), "--mle-gate", "rate-drop", *extra,
        )  # fmt: skip

    failed = gated("--mle-max-drop", "10")
    failed.assert_outcomes(passed=1)
    assert failed.ret == pytest.ExitCode.TESTS_FAILED
    failed.stdout.fnmatch_lines(
        [
            "gate against baseline.json:",
            "  dummy overall *any medal*50.0 % ->    0.0 % (-50.0 points)  FAIL (allowed 10)",
            "  dummy overall *valid*100.0 % ->  100.0 % (+0.0 points)  ok",
            "per competition*",
            "  toy-b * missing   medal 100% -> - *",
            "GATE FAILED: drop larger than 10 points: overall any medal -50.0, split toys any*",
        ]
    )
    passed = gated("--mle-max-drop", "50")
    assert passed.ret == pytest.ExitCode.OK
    passed.stdout.fnmatch_lines(["gate passed"])


def test_allure_results_carry_labels_parameters_attachments(project: ExampleProject) -> None:
    alluredir = project.root / "allure"
    alluredir.mkdir()
    (alluredir / "stale-result.json").write_text("{}")
    result = project.run(
        "-m", "toys", "-k", "toy-a or toy-b", "-n", "2", "--mle-require", "bronze",
        "--alluredir", str(alluredir), "--mle-clean-alluredir",
    )  # fmt: skip
    result.assert_outcomes(passed=1, failed=1)
    assert not (alluredir / "stale-result.json").exists()
    results = {}
    for path in alluredir.glob("*-result.json"):
        data = load(path)
        results[next(lab["value"] for lab in data["labels"] if lab["name"] == "story")] = data
    assert set(results) == {"toy-a", "toy-b"}
    gold = results["toy-b"]
    assert gold["name"] == "toy-b: gold, score 1"
    labels = {(lab["name"], lab["value"]) for lab in gold["labels"]}
    assert {
        ("parentSuite", "toys"), ("feature", "low complexity"), ("story", "toy-b"),
        ("severity", "minor"), ("tag", "tabular"), ("tag", "medal:gold"),
    } <= labels  # fmt: skip
    params = {p["name"]: p for p in gold["parameters"]}
    assert params["agent"]["value"] == "'dummy'" and params["seed"]["value"] == "0"
    assert params["run_id"]["excluded"] is True and params["session_id"]["excluded"] is True
    assert params["mle_case"]["mode"] == "hidden"
    # the leaderboard percentile: 1.0 ties the top entry of ten, beats the other nine
    assert params["percentile"]["value"] == "'95.0'" and params["percentile"]["excluded"] is True
    attachments = {a["name"]: a for a in gold["attachments"]}
    assert {"grade report", "submission.csv (first 20 lines)", "resources"} <= set(attachments)
    report = load(alluredir / attachments["grade report"]["source"])
    assert report["gold_medal"] is True
    head = (alluredir / attachments["submission.csv (first 20 lines)"]["source"]).read_text()
    assert head.startswith("id,label")
    assert load(alluredir / attachments["resources"]["source"])["sandbox"] == "local"
    no_medal = results["toy-a"]
    assert (
        no_medal["status"] == "failed" and "earns no medal" in no_medal["statusDetails"]["message"]
    )
    assert ("tag", "medal:none") in {(lab["name"], lab["value"]) for lab in no_medal["labels"]}
    environment = (alluredir / "environment.properties").read_text()
    assert "agent = dummy" in environment and "sandbox.backend = local" in environment
    assert "git.commit = " in environment and "version.pytest-mlebench = " in environment
    categories = load(alluredir / "categories.json")
    assert [c["name"] for c in categories][:3] == [
        "Timeout",
        "Infrastructure error",
        "Invalid submission",
    ]


def test_paired_gate_passes_identical_sessions_and_fails_one_regressed_competition(
    project: ExampleProject,
) -> None:
    select = ("-m", "toys", "-k", "toy-a or toy-b or toy-high", "--mle-seeds", "3")
    project.run(*select).assert_outcomes(passed=9)
    summary = load(project.root / "reports" / "summary.json")
    percentiles = {
        entry["competition_id"]: [run["percentile"] for run in entry["runs"]]
        for entry in summary["competitions"]
    }
    # ties count half: 0.5 beats 3 of the 10 entries and ties one; 1.0 beats 9 and ties one
    assert percentiles == {"toy-a": [35.0] * 3, "toy-b": [95.0] * 3, "toy-high": [35.0] * 3}
    assert summary["agents"]["dummy"]["overall"]["percentile"]["mean"] == pytest.approx(55.0)
    baseline = project.root / "baseline.json"
    baseline.write_text(json.dumps(summary))

    def gated(name: str) -> pytest.RunResult:
        results = str(project.root / name / "results.jsonl")
        return project.run(*select, "--mle-results", results, "--mle-baseline", str(baseline))

    same = gated("same")
    assert same.ret == pytest.ExitCode.OK
    same.stdout.fnmatch_lines(
        [
            "gate against baseline.json (paired, alpha 0.05, margin off):",
            "  dummy: 9 matched run(s) on 3 competition(s)",
            "    percentile change +0.0 points (95 % CI +0.0 to +0.0)",
            "    medal flips +0/-0 (exact McNemar p=1)",
            "gate passed: no significant change: percentile +0.0 points*",
        ]
    )
    assert "## Gate: passed — no significant change" in (
        (project.root / "same" / "summary.md").read_text()
    )

    for entry in summary["competitions"]:  # as if the agent had done far better on toy-high
        if entry["competition_id"] == "toy-high":
            entry["mean_percentile"] = 90.0
            for run in entry["runs"]:
                run["percentile"] = 90.0
    baseline.write_text(json.dumps(summary))
    worse = gated("worse")
    worse.assert_outcomes(passed=9)  # every run passed its own test; the gate fails the session
    assert worse.ret == pytest.ExitCode.TESTS_FAILED
    worse.stdout.fnmatch_lines(
        [
            "    beyond the seed noise: toy-high -55.0 points over 3 seed(s) (p<1e-06)",
            "    verdict: regression",
            "  toy-high * regressed *percentile 90.0 -> 35.0",
            "GATE FAILED: regression: competition(s) dropped beyond the seed noise: toy-high*",
        ]
    )


def test_a_baseline_of_record_version_one_falls_back_to_rate_drop_with_a_note(
    project: ExampleProject,
) -> None:
    project.run("-m", "toys", "-k", "toy-a or toy-b").assert_outcomes(passed=2)
    old = project.root / "old-results.jsonl"
    lines = []
    for line in (project.root / "reports" / "results.jsonl").read_text().splitlines():
        data = json.loads(line)
        grade = RunRecord.from_dict(data).grade
        assert grade is not None
        data.update(version=1, grade=mlebench_report(grade))  # the flat 16 keys, no percentile
        lines.append(json.dumps(data))
    old.write_text("\n".join(lines) + "\n")
    result = project.run(
        "-m", "toys", "-k", "toy-a or toy-b",
        "--mle-results", str(project.root / "new" / "results.jsonl"), "--mle-baseline", str(old),
    )  # fmt: skip
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(
        [
            "gate against old-results.jsonl:",
            "  note: rate-drop gate: the baseline carries no leaderboard percentiles (written "
            "before percentiles existed); the paired gate needs them on both sides",
            "  dummy overall *any medal*50.0 % ->   50.0 % (+0.0 points)  ok",
            "gate passed",
        ]
    )
    markdown = (project.root / "new" / "summary.md").read_text()
    assert "## Gate: passed\n" in markdown and "- note: rate-drop gate:" in markdown


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (("--mle-gate", "strict"),  # pytest's parser checks the choices of an option itself
         "*argument --mle-gate: invalid choice: 'strict' (choose from 'auto', 'paired', *"),
        (("--mle-gate-alpha", "0"),
         "*invalid gate-alpha '0' from option --mle-gate-alpha: expected a number between 0*"),
        (("-o", "mle_gate_alpha=high"),
         "*invalid gate-alpha 'high' from ini option mle_gate_alpha: expected a number*"),
    ],
)  # fmt: skip
def test_bad_gate_settings_are_usage_errors_naming_the_source(
    project: ExampleProject, given: tuple[str, ...], message: str
) -> None:
    result = project.run("-m", "toys", *given)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert "Traceback" not in result.stderr.str()


def test_a_bad_gate_mode_from_the_environment_names_the_variable(
    project: ExampleProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLEBENCH_GATE", "paired-ish")
    result = project.run("-m", "toys")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*invalid gate 'paired-ish' from environment variable MLEBENCH_GATE: choose one of*"]
    )
