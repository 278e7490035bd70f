"""``mlebench leaderboard fetch``: a board from Kaggle, compared with the shipped one."""

from __future__ import annotations

import argparse

from pytest_mlebench.cli.common import common, data_dir, registry


def add_leaderboard(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("leaderboard", help="fetch a competition's board from Kaggle")
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    fetch = actions.add_parser(
        "fetch",
        help="fetch the board through the Kaggle API, save it in the data dir (never over the "
        "shipped one) and compare row count and medal thresholds with the shipped board",
    )
    common(fetch)
    fetch.add_argument("competition_id", help="the competition")
    fetch.set_defaults(handler=cmd_leaderboard_fetch)


def cmd_leaderboard_fetch(args: argparse.Namespace) -> int:
    from pytest_mlebench.kaggle import client
    from pytest_mlebench.kaggle.leaderboard import fetch_leaderboard

    competition = registry(args).get(args.competition_id)
    board = fetch_leaderboard(client.new_api(), competition, data_dir(args))
    for line in board.report_lines():
        print(line)
    return 0
