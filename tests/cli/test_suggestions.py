"""Every name the ``mlebench`` command looks up offers the closest known ones when mistyped."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.agents import load_agent
from pytest_mlebench.cli import main
from pytest_mlebench.errors import AgentError, UnknownCompetition
from pytest_mlebench.registry import load_registry


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    code = main(list(argv))
    return code, capsys.readouterr().err


def test_grade_sample_with_a_mistyped_id_offers_the_closest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    submission = tmp_path / "submission.csv"
    submission.write_text("id,label\n")
    code, err = run(capsys, "grade-sample", str(submission), "digitz")
    assert code == 1
    assert "unknown competition 'digitz'; did you mean: digits?" in err
    assert "known competitions:" not in err, "a close match replaces the list of every id"


def test_prepare_with_a_mistyped_id_or_split_offers_the_closest(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = ["--data-dir", str(tmp_path / "data")]
    code, err = run(capsys, "prepare", *data, "-c", "titanc")
    assert code == 1 and "unknown competition 'titanc'; did you mean: titanic?" in err
    code, err = run(capsys, "prepare", *data, "--split", "lyte")
    assert code == 1 and "unknown split 'lyte'; did you mean: lite?" in err
    assert not (tmp_path / "data").exists() or not any((tmp_path / "data").iterdir())


def test_list_with_a_mistyped_split_offers_the_closest(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "list", "--split", "embeded")
    assert code == 1 and "unknown split 'embeded'; did you mean: embedded?" in err


def test_a_name_close_to_nothing_still_lists_every_known_one_wrapped() -> None:
    registry = load_registry()
    with pytest.raises(UnknownCompetition) as raised:
        registry.get("zzzzzzzz")
    first, *listed = str(raised.value).splitlines()
    assert (
        first
        == f"unknown competition 'zzzzzzzz'; none is close; known competitions ({len(registry)}):"
    )
    assert len(listed) > 5 and all(len(line) <= 96 and line.startswith("  ") for line in listed)
    assert "titanic" in " ".join(listed)


def test_a_word_of_the_id_is_enough_for_a_suggestion(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, err = run(capsys, "prepare", "--data-dir", str(tmp_path / "d"), "-c", "spaceship-titanic")
    assert code == 1 and "unknown competition 'spaceship-titanic'; did you mean: titanic?" in err


def test_an_agent_name_close_to_a_built_in_offers_it() -> None:
    with pytest.raises(AgentError, match=r"unknown agent 'dumy'; did you mean: dummy\? Built-in"):
        load_agent("dumy")
    with pytest.raises(AgentError, match=r"unknown agent 'basline'; did you mean: baseline\?"):
        load_agent("basline")


def test_a_mistyped_option_of_a_command_offers_the_closest(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["list", "--splt", "lite"])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert "unrecognized arguments: --splt lite; did you mean: --split" in err
