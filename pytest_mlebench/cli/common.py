"""What every ``mlebench`` command shares: the data and competition folders, and printing."""

from __future__ import annotations

import argparse
from pathlib import Path

from pytest_mlebench.registry import Competition, Registry, load_one, load_registry
from pytest_mlebench.settings import add_cli_options, cli_value

SHARED_SETTINGS = ("data-dir", "competitions-dir")


def common(parser: argparse.ArgumentParser) -> None:
    """Declare ``--data-dir`` and ``--competitions-dir`` on a command."""
    add_cli_options(parser, *SHARED_SETTINGS)


def data_dir(args: argparse.Namespace) -> Path:
    folder: Path = cli_value(args, "data-dir")
    return folder


def registry(args: argparse.Namespace) -> Registry:
    folders: tuple[Path, ...] = cli_value(args, "competitions-dir")
    return load_registry(folders)


def competition(args: argparse.Namespace, competition_id: str) -> Competition:
    """One competition of the registry, loading no other (``registry(args).get(...)`` reads
    them all)."""
    folders: tuple[Path, ...] = cli_value(args, "competitions-dir")
    return load_one(competition_id, folders)


def say(line: str) -> None:
    """One line of progress, flushed at once (a long prepare shows as it goes)."""
    print(line, flush=True)
