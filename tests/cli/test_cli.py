"""The ``mlebench`` command, run in-process on toy competitions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.registry import BUILTIN_COMPETITIONS_DIR, read_id_list
from tests.factories import write_competition

MLEBENCH_KEYS = {
    "competition_id",
    "score",
    "gold_threshold",
    "silver_threshold",
    "bronze_threshold",
    "median_threshold",
    "any_medal",
    "gold_medal",
    "silver_medal",
    "bronze_medal",
    "above_median",
    "submission_exists",
    "valid_submission",
    "is_lower_better",
    "created_at",
    "submission_path",
}


@pytest.fixture
def toy(tmp_path: Path) -> list[str]:
    write_competition(tmp_path / "defs", "toy", splits={"toys": ["toy", "toy-not-here"]})
    return ["--competitions-dir", str(tmp_path / "defs"), "--data-dir", str(tmp_path / "data")]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_list_shows_complexity_modality_metric_direction(
    toy: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "list", *toy)
    assert code == 0
    line = next(line for line in out.splitlines() if line.startswith("toy "))
    expected = ["toy", "low", "embedded", "tabular", "accuracy", "higher", "is", "better"]
    assert line.split() == expected
    assert "split lite: 22 defined, 0 prepared" in out
    assert "split toys: 1 defined, 0 prepared, 1 listed but not in this release" in out
    assert f"defined, 0 prepared (data in {toy[-1]}; mlebench prepare -c ID makes it)" in out


def test_list_json_of_a_split(toy: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "list", *toy, "--split", "toys", "--json")
    assert code == 0
    assert [row["id"] for row in json.loads(out)] == ["toy"]


def test_prepare_then_grade_sample(
    toy: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "prepare", *toy, "--split", "toys")
    assert code == 0 and "1 of 1 prepared" in out
    _, listed, _ = run(capsys, "list", *toy)
    assert "split toys: 1 defined, 1 prepared" in listed
    sample = tmp_path / "data" / "toy" / "prepared" / "public" / "sample_submission.csv"
    code, out, _ = run(capsys, "grade-sample", str(sample), "toy", *toy)
    report = json.loads(out)
    assert code == 0
    assert MLEBENCH_KEYS | {"invalid_reason"} == set(report)
    assert report["valid_submission"] is True and report["score"] == 0.5
    assert report["any_medal"] is False


@pytest.mark.parametrize(
    ("content", "reason"),
    [
        (b"", "empty"),
        (b"id,label\n", "no data rows"),
        (b"\x00\xff\xfe binary", ""),
        (b"id;label\nr020;0\n", ""),
    ],
)
def test_grade_sample_garbage_is_an_invalid_report(
    toy: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes, reason: str
) -> None:
    bad = tmp_path / "bad.csv"
    bad.write_bytes(content)
    code, out, _ = run(capsys, "grade-sample", str(bad), "toy", *toy)
    report = json.loads(out)
    assert code == 1
    assert report["valid_submission"] is False and report["score"] is None
    assert reason in report["invalid_reason"]


def test_grade_sample_of_a_directory_and_a_missing_file(
    toy: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "grade-sample", str(tmp_path), "toy", *toy)
    assert code == 1 and "directory" in json.loads(out)["invalid_reason"]
    code, out, _ = run(capsys, "grade-sample", str(tmp_path / "none.csv"), "toy", *toy)
    report = json.loads(out)
    assert code == 1 and report["submission_exists"] is False


def test_grade_many_writes_the_aggregated_report(
    toy: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys, "prepare", *toy, "-c", "toy")
    answers = tmp_path / "data" / "toy" / "prepared" / "private" / "answers.csv"
    (tmp_path / "empty.csv").write_text("")
    listing = tmp_path / "submission.jsonl"
    listing.write_text(
        json.dumps({"competition_id": "toy", "submission_path": str(answers)})
        + "\n"
        + json.dumps({"competition_id": "toy", "submission_path": "empty.csv"})
        + "\n"
        + json.dumps({"competition_id": "toy", "submission_path": "missing.csv"})
        + "\n"
    )
    code, _, _ = run(
        capsys, "grade", *toy, "--submission", str(listing), "--output-dir", str(tmp_path / "out")
    )
    assert code == 0
    report = json.loads((tmp_path / "out" / "grading_report.json").read_text())
    assert report["total_runs"] == 3
    assert report["total_runs_with_submissions"] == 2
    assert report["total_valid_submissions"] == 1
    assert report["total_gold_medals"] == report["total_medals"] == 1
    assert set(report["competition_reports"][0]) >= MLEBENCH_KEYS


def test_unknown_competition_is_a_clear_error(
    toy: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "prepare", *toy, "-c", "nope")
    assert code == 1
    assert "unknown competition 'nope'; none is close; known competitions (" in err


def test_bad_submission_list_is_a_clear_error(
    toy: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = tmp_path / "submission.jsonl"
    listing.write_text("not json\n")
    out_dir = str(tmp_path / "o")
    code, _, err = run(capsys, "grade", *toy, "--submission", str(listing), "--output-dir", out_dir)
    assert code == 1 and "submission.jsonl:1: not valid JSON" in err
    assert "expected a JSON object with competition_id and submission_path" in err


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys)
    assert code == 2 and "grade-sample" in out


def test_list_of_split_all_shows_every_id_not_yet_available(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, _ = run(capsys, "list", "--split", "all")
    assert code == 0
    listed = read_id_list(BUILTIN_COMPETITIONS_DIR / "splits" / "all.txt")
    rows = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    not_yet = [cid for cid in listed if "not yet available" in rows[cid]]
    built = [cid for cid in listed if rows[cid].endswith("is better")]
    assert len(listed) == 75 and len(not_yet) + len(built) == 75
    if not_yet:
        assert f"{len(not_yet)} more of split all not yet available" in out
    else:  # every competition ships: the listing says so, and names none as missing
        assert "split all: 75 defined" in out and "not yet available" not in out
