"""Command lines pytest misreads in silence: a usage error with the fix instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.usage_checks import (
    command_line_problem,
    option_table,
    unknown_marks_message,
)
from tests.plugin.conftest import ExampleProject

OPTIONS = {"--mle-agent": True, "--mle-data-dir": True, "--mle-clean-alluredir": False}


@pytest.fixture
def outside(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An existing folder outside the example project (as a user's agent folder often is)."""
    return tmp_path_factory.mktemp("elsewhere")


def test_a_path_option_written_as_two_words_stops_with_the_one_word_form(
    project: ExampleProject, outside: Path
) -> None:
    result = project.run("-k", "toy-a", "--mle-data-dir", str(outside))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        [f"ERROR: --mle-data-dir {outside}: written as two words, *"
         f"write it as one word: --mle-data-dir={outside}"]
    )  # fmt: skip
    assert "test_competition" not in result.stdout.str()
    assert project.prepare_calls() == []


def test_the_one_word_form_of_the_same_path_runs(project: ExampleProject, outside: Path) -> None:
    result = project.run("-k", "toy-a", f"--mle-data-dir={outside}")
    result.assert_outcomes(passed=1)
    assert (outside / "toy-a" / "prepared").is_dir()


def test_the_agent_option_is_checked_the_same_way(project: ExampleProject, outside: Path) -> None:
    (outside / "config.yaml").write_text("mine:\n  start: start.sh\n")
    result = project.run("-k", "toy-a", "--mle-agent", str(outside))
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert f"write it as one word: --mle-agent={outside}" in result.stderr.str()


def test_a_mistyped_option_gets_the_closest_names(project: ExampleProject) -> None:
    result = project.run("-k", "toy-a", "--mle-sedes=2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["ERROR: unrecognized option --mle-sedes; did you mean: --mle-seeds*"]
    )


def test_an_unknown_strict_mark_gets_the_closest_marks(project: ExampleProject) -> None:
    result = project.run("--strict-markers", "-m", "toyz or toy-a")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["ERROR: unknown mark(s) toyz, toy-a in -m 'toyz or toy-a'; did you mean: toys*? *; "
         "'toy-a' is a competition id, not a mark: select it with -k toy-a"]
    )  # fmt: skip


def test_an_unknown_agent_gets_the_closest_built_in(project: ExampleProject) -> None:
    result = project.run("-k", "toy-a", "--mle-agent", "dumy")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "unknown agent 'dumy'; did you mean: dummy? Built-in agents are" in result.stderr.str()


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--mle-agent", "dummy"], None),
        (["--mle-agent", "inside"], None),  # a folder of the run's own folder: harmless
        (["--mle-agent", "{outside}"], "write it as one word: --mle-agent={outside}"),
        (["--mle-agent", "{outside}/missing"], None),  # pytest ignores paths that do not exist
        (["--mle-agent={outside}"], None),
        (["--mle-clean-alluredir", "{outside}"], None),  # a flag: the word is a real test path
        (["--", "--mle-agnt"], None),
        (["--mle-agnt", "x"], "unrecognized option --mle-agnt; did you mean: --mle-agent?"),
    ],
)
def test_command_line_problems(
    tmp_path: Path, outside: Path, args: list[str], problem: str | None
) -> None:
    (tmp_path / "inside").mkdir()
    words = [word.format(outside=outside) for word in args]
    found = command_line_problem(words, tmp_path, OPTIONS)
    if problem is None:
        assert found is None
    else:
        assert found is not None and problem.format(outside=outside) in found


def test_only_the_words_pytest_reads_for_its_root_folder_are_checked(
    tmp_path: Path, outside: Path
) -> None:
    from_ini = ["--mle-data-dir", str(outside)]  # the ini file's addopts: read after the root
    assert command_line_problem([*from_ini, "-k", "x"], tmp_path, OPTIONS, ["-k", "x"]) is None
    typo = command_line_problem(["--mle-agnt", "x"], tmp_path, OPTIONS, [])
    assert typo is not None and "did you mean: --mle-agent?" in typo


def test_the_option_table_knows_flags_from_value_options() -> None:
    table = option_table()
    assert table["--mle-agent"] is True and table["--mle-data-dir"] is True
    assert False in table.values()


def test_unknown_marks_message_names_only_unknown_words() -> None:
    marks = {"lite", "embedded", "complexity"}
    assert unknown_marks_message("lite and complexity(level='low')", marks, ()) is None
    message = unknown_marks_message("lyte", marks, ())
    assert message is not None and message.startswith("unknown mark(s) lyte in -m 'lyte'; did you")
