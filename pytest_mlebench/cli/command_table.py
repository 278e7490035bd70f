"""The ``mlebench`` commands by name: where each is declared, and its one line of help.

The table holds names and strings only, so that ``mlebench`` imports the module of the command
it runs and no other: ``mlebench grade-sample`` never pays for the Docker client, the report
renderers or the Kaggle planner. :func:`add_commands` declares the chosen commands in full, by
importing their modules, and every other command by its name and help line, so ``mlebench
--help`` still lists them all. ``tests/cli/test_lazy_commands.py`` holds each help line here to
the one its module declares.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Collection
from dataclasses import dataclass
from importlib import import_module

from pytest_mlebench.cli.common import common

__all__ = ["COMMANDS", "Command", "add_commands"]


@dataclass(frozen=True)
class Command:
    """One ``mlebench`` command.

    Attributes:
        name: What the user types (``grade-sample``).
        help: The line ``mlebench --help`` shows; the same words the declaring function gives.
        module: The module that declares it (imported only when the command runs).
        function: That module's function that declares it on the subcommands action.
        takes_common: The function also takes :func:`~pytest_mlebench.cli.common.common` (the
            shared ``--data-dir`` and ``--competitions-dir``), for declarers outside the
            ``cli`` package, which must not import it.
    """

    name: str
    help: str
    module: str
    function: str
    takes_common: bool = False

    def declare(self, commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
        """Import the declaring module and declare the command in full."""
        declare: Callable[..., None] = getattr(import_module(self.module), self.function)
        if self.takes_common:
            declare(commands, common)
        else:
            declare(commands)


CLI = "pytest_mlebench.cli"
COMMANDS: tuple[Command, ...] = (
    Command("list", "list competitions and splits", f"{CLI}.listing", "add_list"),
    Command(
        "prepare",
        "download (Kaggle) and prepare competition data",
        f"{CLI}.prepare",
        "add_prepare",
    ),
    Command(
        "grade-sample",
        "grade one submission file and print the report as JSON",
        f"{CLI}.grade_commands",
        "add_grade_sample",
    ),
    Command(
        "grade",
        "grade every submission listed in a submission.jsonl file",
        f"{CLI}.grade_commands",
        "add_grade",
    ),
    Command("agents", "list the built-in agents", f"{CLI}.sandbox_commands", "add_agents"),
    Command(
        "sandbox",
        "build the Docker image or clean up containers",
        f"{CLI}.sandbox_commands",
        "add_sandbox",
    ),
    Command(
        "report",
        "summarise results files (shards merged), render HTML/Allure pages, compare runs",
        "pytest_mlebench.report.command",
        "add_report_command",
    ),
    Command(
        "leaderboard",
        "fetch a competition's board from Kaggle",
        f"{CLI}.board_commands",
        "add_leaderboard",
    ),
    Command(
        "eng", "engineering tasks: build one from a pull request", f"{CLI}.eng_commands", "add_eng"
    ),
    Command(
        "doctor",
        "check credentials, disk, Docker, the image, GPUs and the agent's LLM gateway; "
        "each problem's fix",
        "pytest_mlebench.doctor",
        "add_doctor_command",
        takes_common=True,
    ),
    Command(
        "integrity",
        "run the integrity checks again on saved runs (docs/integrity.md)",
        "pytest_mlebench.integrity_command",
        "add_integrity_command",
        takes_common=True,
    ),
    Command(
        "model",
        "serve a local model for the agents and the judge",
        "pytest_mlebench.local_model.serve_command",
        "add_model_command",
    ),
    Command(
        "familiarity",
        "measure a model's familiarity with each competition's description (its mean "
        "log-probability per token, from a vLLM or llama.cpp server; docs/integrity.md)",
        f"{CLI}.familiarity_command",
        "add_familiarity",
    ),
    Command(
        "show",
        "write and open a run's page (its steps, files, findings, grade), or print it",
        f"{CLI}.show_command",
        "add_show",
    ),
)
"""Every command, in the order ``mlebench --help`` lists them."""


def add_commands(
    commands: argparse._SubParsersAction[argparse.ArgumentParser],
    full: Collection[str] | None = None,
) -> None:
    """Declare every command on ``commands``: those named in ``full`` (all when None) with
    their options, by importing their modules; the others by name and help line only."""
    for command in COMMANDS:
        if full is None or command.name in full:
            command.declare(commands)
        else:
            commands.add_parser(command.name, help=command.help, add_help=False)
