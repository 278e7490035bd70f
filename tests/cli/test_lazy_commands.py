"""``mlebench`` imports the module of the command it runs and no other; ``--help`` lists them all.

The commands are found by name in ``pytest_mlebench.cli.command_table``; the import checks run
in a fresh interpreter, since this test process has imported every module long ago.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

import pytest

from pytest_mlebench.cli import build_parser, main
from pytest_mlebench.cli.command_table import COMMANDS
from pytest_mlebench.graders.metrics import METRIC_MODULES


def listed_commands(parser: argparse.ArgumentParser) -> list[tuple[str, str]]:
    """``(name, help line)`` of every command of ``parser``, in the order ``--help`` shows."""
    (subcommands,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    return [(str(action.dest), str(action.help)) for action in subcommands._choices_actions]


def modules_after(argv: list[str]) -> tuple[int, set[str]]:
    """Exit status of ``main(argv)`` in a fresh interpreter, and the modules it had imported."""
    script = (
        "import json, sys\n"
        "from pytest_mlebench.cli import main\n"
        "try:\n"
        f"    code = main({argv!r})\n"
        "except SystemExit as exit:\n"
        "    code = exit.code\n"
        "print(json.dumps([code, sorted(sys.modules)]))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    code, modules = json.loads(done.stdout.splitlines()[-1])
    return code, set(modules)


def test_help_lists_every_command_with_its_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit:
        main(["--help"])
    assert exit.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    for command in COMMANDS:
        assert f"{command.name} {' '.join(command.help.split())}" in text


def test_the_tables_help_lines_are_the_ones_the_commands_declare() -> None:
    declared = listed_commands(build_parser())  # every command declared by its own module
    assert declared == [(command.name, command.help) for command in COMMANDS]
    assert listed_commands(build_parser([])) == declared


def test_grade_sample_imports_no_other_commands_module() -> None:
    code, modules = modules_after(["grade-sample", "absent.csv", "no-such-competition"])
    assert code == 1  # the command ran: the competition is unknown
    own = {c.module for c in COMMANDS if c.name == "grade-sample"}
    assert own <= modules
    others = {c.module for c in COMMANDS} - own
    assert not others & modules, sorted(others & modules)
    # nor what the other commands need: the Docker client, the report renderers, pytest, HTTP
    heavy = {
        "docker",
        "pytest",
        "pytest_mlebench.report",
        "pytest_mlebench.kaggle.plan",
        "urllib.request",
    }
    assert not heavy & modules, sorted(heavy & modules)


def test_help_imports_no_commands_module() -> None:
    code, modules = modules_after(["--help"])
    assert code == 0
    assert not {c.module for c in COMMANDS} & modules


def test_a_command_runs_with_its_own_options() -> None:
    args = build_parser(["list"]).parse_args(["list", "--split", "lite"])
    assert args.handler.__name__ == "cmd_list" and args.split == "lite"
    with pytest.raises(SystemExit):
        build_parser(["list"]).parse_args(["grade-sample", "x.csv", "digits"])


def test_grade_sample_loads_one_competition_and_one_metric_module(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    code, modules = modules_after(["grade-sample", "absent.csv", "digits", "--data-dir", data])
    assert code == 1  # digits is prepared, the absent file is an invalid submission
    family = "pytest_mlebench.graders.metrics."
    metric_modules = {name for name in modules if name.startswith(family)}
    shared = {f"{family}base", f"{family}text_column"}  # what every metric's input is made of
    assert metric_modules == shared | {f"{family}{METRIC_MODULES['accuracy']}"}
