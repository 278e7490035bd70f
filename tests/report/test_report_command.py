"""``mlebench report``: merge shards into summary files, render HTML, compare (the CI gate)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.records.run_record import RunRecord, append_record
from tests.report.builders import record


def write(path: Path, records: list[RunRecord]) -> Path:
    for item in records:
        append_record(path, item)
    return path


@pytest.fixture
def shards(tmp_path: Path) -> list[Path]:
    return [
        write(tmp_path / "machine1.jsonl", [record("alpha", 0, 0.95), record("beta", 0, 0.4)]),
        write(
            tmp_path / "machine2.jsonl",
            [
                record("alpha", 1, 0.5, session_id="s2"),
                record("beta", 0, 0.75, session_id="s2", finished_at="2026-01-05T00:00:00+00:00"),
            ],
        ),
    ]


def test_report_merges_shards_and_writes_every_file(
    shards: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    code = main(["report", *map(str, shards), "--out", str(out), "--html", str(tmp_path / "html")])
    printed = capsys.readouterr().out
    assert code == 0
    summary = json.loads((out / "summary.json").read_text())
    assert summary["sessions"] == ["s1", "s2"]
    assert summary["merge"]["records_used"] == 3
    beta = next(c for c in summary["competitions"] if c["competition_id"] == "beta")
    assert [r["score"] for r in beta["runs"]] == [0.75]  # the newer record of beta seed 0
    assert "merge: duplicate beta seed 0 (dummy): kept beta-s0-dummy-s2" in printed
    assert "merge: missing seeds 1 of 2 for beta (dummy)" in printed
    assert (out / "mlebench" / "grading_report.json").is_file()
    assert len((out / "mlebench" / "submission.jsonl").read_text().splitlines()) == 3
    assert (tmp_path / "html" / "index.html").is_file()
    assert "overall: 2 competitions, 3 runs; any medal" in printed


def test_compare_exit_status_is_the_gate(
    shards: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    better = shards[0]  # alpha gold, beta valid without medal: any medal 50 %
    worse = write(tmp_path / "worse.jsonl", [record("alpha", 0, 0.1), record("beta", 0, 0.2)])
    assert main(["report", "--compare", str(better), str(worse)]) == 1
    assert "GATE FAILED" in capsys.readouterr().out
    assert main(["report", "--compare", str(better), str(worse), "--max-drop", "100"]) == 0
    assert main(["report", "--compare", str(worse), str(better)]) == 0
    assert "gate passed" in capsys.readouterr().out


def test_nothing_to_do_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["report"]) == 1
    assert "nothing to do" in capsys.readouterr().err


def test_allure_without_npx_says_how_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("pytest_mlebench.report.allure_site.shutil.which", lambda name: None)
    (tmp_path / "results").mkdir()
    code = main(
        ["report", "--allure", str(tmp_path / "site"), "--alluredir", str(tmp_path / "results")]
    )
    assert code == 1
    assert "needs Node.js with npx" in capsys.readouterr().out


def test_results_make_summary_md_and_a_summary_json_alone_does_not(
    shards: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "out"
    assert main(["report", *map(str, shards), "--out", str(out)]) == 0
    markdown = (out / "summary.md").read_text()
    assert markdown.startswith("# MLE-bench summary") and "## Gate" not in markdown
    assert f"markdown: {out / 'summary.md'}" in capsys.readouterr().out
    (out / "summary.md").unlink()
    assert main(["report", str(out / "summary.json"), "--html", str(tmp_path / "h")]) == 0
    assert not (out / "summary.md").exists()  # a session's own summary.md is left alone


def test_compare_writes_the_verdict_into_summary_md_and_the_step_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    runs = [("alpha", s, 80.0 + s) for s in range(3)] + [("beta", s, 50.0 - s) for s in range(3)]
    base = write(tmp_path / "base.jsonl", [record(c, s, 0.6, percentile=p) for c, s, p in runs])
    worse = [record(c, s, 0.6, percentile=p - 40 * (c == "alpha")) for c, s, p in runs]
    new = write(tmp_path / "new.jsonl", worse)
    step = tmp_path / "step.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step))
    out = tmp_path / "out"
    code = main(["report", "--compare", str(base), str(new), "--out", str(out)])
    printed = capsys.readouterr().out
    assert code == 1
    assert f"gate against {base} (paired, alpha 0.05, margin off):" in printed
    assert "GATE FAILED: regression: competition(s) dropped beyond the seed noise: alpha" in printed
    markdown = (out / "summary.md").read_text()
    assert "## Gate: FAILED — regression" in markdown
    assert step.read_text() == markdown
    assert f"markdown: {out / 'summary.md'} (appended to {step})" in printed
    assert main(["report", "--compare", str(base), str(new), "--gate", "rate-drop"]) == 0
    assert "gate passed" in capsys.readouterr().out  # rates did not move: rate-drop passes


def test_html_with_compare_shows_the_baseline_in_the_profile(
    shards: list[Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    site = tmp_path / "site"
    code = main(
        ["report", str(shards[0]), "--out", str(tmp_path / "o"), "--html", str(site),
         "--compare", str(shards[1]), str(shards[0])]
    )  # fmt: skip
    capsys.readouterr()
    assert code in (0, 1)
    assert "dummy (baseline) medal %" in (site / "index.html").read_text()


def test_bad_gate_settings_name_the_option(
    shards: list[Path], capsys: pytest.CaptureFixture[str]
) -> None:
    compare = ["report", "--compare", str(shards[0]), str(shards[1])]
    with pytest.raises(SystemExit):  # argparse checks the choices of --gate itself
        main([*compare, "--gate", "strict"])
    assert "invalid choice: 'strict'" in capsys.readouterr().err
    assert main([*compare, "--gate-alpha", "1.5"]) != 0
    assert (
        "invalid gate-alpha '1.5' from option --gate-alpha: expected a number between 0 and 1, "
        "e.g. 0.05"
    ) in capsys.readouterr().err


def test_bad_gate_alpha_from_the_environment_names_the_variable(
    shards: list[Path], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MLEBENCH_GATE_ALPHA", "0")
    assert main(["report", "--compare", str(shards[0]), str(shards[1])]) != 0
    err = capsys.readouterr().err
    assert "invalid gate-alpha '0' from environment variable MLEBENCH_GATE_ALPHA" in err
    assert "Traceback" not in err
