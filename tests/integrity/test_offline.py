"""``mlebench integrity`` on saved runs, and the judge's missing key, through the real tools."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from tests.integrity.conftest import AGENTS, ExampleProject, records_of

pytestmark = pytest.mark.timeout(300)


def test_saved_runs_are_checked_again_offline(
    project: ExampleProject, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    project.run("-k", "toy-b", f"--mle-agent={AGENTS / 'premade'}").assert_outcomes(passed=1)
    (record,) = records_of(project.root)
    run_dir = Path(record["run_dir"])
    assert (run_dir / "integrity" / "evidence.json").is_file()
    defs = ["--competitions-dir", str(project.root / "defs")]
    assert main(["integrity", str(run_dir), *defs]) == 0
    out = capsys.readouterr().out
    assert f"{record['run_id']} (premade): 1 flag(s)" in out
    assert "high watermark/pre-made-submission" in out
    report = tmp_path / "integrity.json"
    results = str(project.root / "reports" / "results.jsonl")
    code = main(
        [
            "integrity",
            results,
            *defs,
            "--integrity",
            "strict",
            "--json",
            str(report),
            "--fail-on",
            "high",
        ]
    )
    assert code == 1
    saved = json.loads(report.read_text())["runs"][record["run_id"]]
    assert saved["medal_withheld"] is True and saved["earned_medal"] == "gold"
    lenient = tmp_path / "lenient.yaml"
    lenient.write_text(
        "watermark:\n  pre_made_submission: low\n  submission_before_start: high\n"
        "  code_before_start: medium\n"
    )
    assert (
        main(["integrity", results, *defs, "--integrity-policy", str(lenient), "--fail-on", "high"])
        == 0
    )
    assert "low watermark/pre-made-submission" in capsys.readouterr().out


def test_a_missing_run_is_a_clear_error(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["integrity", str(tmp_path / "nothing")]) == 1
    assert "no such run folder or results file" in capsys.readouterr().err


def test_the_judge_without_its_key_is_a_usage_error(
    project: ExampleProject, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    result = project.run("-k", "toy-a", "--mle-judge", "provider/model")
    assert result.ret == 4  # a usage error, before any test runs
    result.stderr.fnmatch_lines(
        ["*LLM judge --mle-judge provider/model*secret OPENAI_API_KEY*export OPENAI_API_KEY=*"]
    )
    assert not (project.root / "reports" / "results.jsonl").exists()
