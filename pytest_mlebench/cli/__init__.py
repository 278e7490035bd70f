"""The ``mlebench`` command: list, prepare, grade, grade-sample, agents, sandbox, report,
leaderboard, eng, doctor, integrity.

Each subcommand reuses the functions the pytest plugin calls; one module per command group
(:mod:`.listing`, :mod:`.prepare`, :mod:`.grading`, :mod:`.sandbox`, :mod:`.leaderboard`), their
shared options in :mod:`.common`. The shared options (``--data-dir``, ``--competitions-dir``,
``report --max-drop``) are the ``--mle-*`` settings of the same names, declared and resolved by
:mod:`pytest_mlebench.settings` (CLI > environment > default).
Exit status: 0 success, 1 the command ran but found a problem (invalid submission, failed
prepare), 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from pytest_mlebench.cli import (
    board_commands,
    eng_commands,
    grade_commands,
    listing,
    prepare,
    sandbox_commands,
)
from pytest_mlebench.cli.common import common
from pytest_mlebench.errors import MLEBenchError, SettingError
from pytest_mlebench.suggest import closest, did_you_mean

__all__ = ["build_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    try:
        code: int = args.handler(args)
    except SettingError as exc:
        print(f"mlebench: error: {exc}", file=sys.stderr)
        return 2
    except MLEBenchError as exc:
        print(f"mlebench: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("mlebench: interrupted", file=sys.stderr)
        return 130
    return code


class SuggestingParser(argparse.ArgumentParser):
    """argparse's parser, whose "unrecognized arguments" error offers the closest option names
    of every command (that error comes from the top parser, so the commands' parsers are plain)."""

    def error(self, message: str) -> NoReturn:
        if message.startswith("unrecognized arguments: "):
            words = message.removeprefix("unrecognized arguments: ").split()
            known = option_names(self)
            offered = [name for word in words if word.startswith("--") for name in
                       closest(word.partition("=")[0], known)]  # fmt: skip
            message += did_you_mean(offered)
        super().error(message)


def option_names(parser: argparse.ArgumentParser) -> set[str]:
    """The long options of ``parser`` and of all its subcommands."""
    names: set[str] = set()
    for action in parser._actions:
        names.update(option for option in action.option_strings if option.startswith("--"))
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                names |= option_names(sub)
    return names


def build_parser() -> argparse.ArgumentParser:
    parser = SuggestingParser(
        prog="mlebench", description="Prepare, list and grade MLE-bench competitions."
    )
    commands = parser.add_subparsers(
        title="commands", metavar="COMMAND", parser_class=argparse.ArgumentParser
    )
    listing.add_list(commands)
    prepare.add_prepare(commands)
    grade_commands.add_grade_sample(commands)
    grade_commands.add_grade(commands)
    sandbox_commands.add_agents(commands)
    sandbox_commands.add_sandbox(commands)
    from pytest_mlebench.report.command import add_report_command

    add_report_command(commands)
    board_commands.add_leaderboard(commands)
    eng_commands.add_eng(commands)
    from pytest_mlebench.doctor import add_doctor_command

    add_doctor_command(commands, common)
    from pytest_mlebench.integrity_command import add_integrity_command

    add_integrity_command(commands, common)
    from pytest_mlebench.local_model.serve_command import add_model_command

    add_model_command(commands)
    from pytest_mlebench.cli.familiarity_command import add_familiarity

    add_familiarity(commands)
    return parser
