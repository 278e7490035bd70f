"""The ``mlebench`` command: list, prepare, grade, grade-sample, agents, sandbox, report,
leaderboard, eng, doctor, integrity, model, familiarity, show.

Each subcommand reuses the functions the pytest plugin calls; one module per command group
(:mod:`.listing`, :mod:`.prepare`, :mod:`.grade_commands`, :mod:`.sandbox_commands`,
:mod:`.board_commands`, ...), their shared options in :mod:`.common`. The commands are found by
name in :mod:`.command_table`: a run imports the module of its own command only, and
``mlebench --help`` lists every command without importing any. The shared options
(``--data-dir``, ``--competitions-dir``, ``report --max-drop``) are the ``--mle-*`` settings of
the same names, declared and resolved by :mod:`pytest_mlebench.settings` (CLI > environment >
default).
Exit status: 0 success, 1 the command ran but found a problem (invalid submission, failed
prepare), 2 bad usage.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import NoReturn

from pytest_mlebench.cli.command_table import COMMANDS, add_commands
from pytest_mlebench.errors import MLEBenchError, SettingError
from pytest_mlebench.suggest import closest, did_you_mean

__all__ = ["build_parser", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words[:1])
    args = parser.parse_args(words)
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


def build_parser(words: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The ``mlebench`` parser. With ``words`` (the command line, or its first word), only the
    command they name is declared in full, importing its module; the others are declared by
    name and help line. Without, every command is declared in full."""
    parser = SuggestingParser(
        prog="mlebench", description="Prepare, list and grade MLE-bench competitions."
    )
    commands = parser.add_subparsers(
        title="commands", metavar="COMMAND", parser_class=argparse.ArgumentParser
    )
    known = {command.name for command in COMMANDS}
    add_commands(commands, None if words is None else known.intersection(words[:1]))
    return parser
