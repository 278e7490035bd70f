"""``mlebench list``: the competitions and splits, as a table or JSON.

The counts say how many competitions are *defined* (a folder in this release) and how many are
*prepared* (their data is in the data folder, ready to run offline): a defined competition whose
data is missing is skipped by pytest with the command that prepares it."""

from __future__ import annotations

import argparse
import json

from pytest_mlebench.cli.common import common, data_dir, registry
from pytest_mlebench.cli.eng_listing import print_tasks
from pytest_mlebench.data import prepared_paths
from pytest_mlebench.medals import MEDALS
from pytest_mlebench.registry import Competition
from pytest_mlebench.settings import add_cli_options


def add_list(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("list", help="list competitions and splits")
    common(parser)
    parser.add_argument("--split", help="only competitions of this split")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument(
        "--kind",
        choices=("competition", "engineering"),
        default="competition",
        help="list competitions (default) or engineering tasks (docs/engineering.md)",
    )
    add_cli_options(parser, "engineering-dir")
    parser.set_defaults(handler=cmd_list)


def cmd_list(args: argparse.Namespace) -> int:
    if args.kind == "engineering":
        return print_tasks(args)
    known = registry(args)
    chosen = known.split(args.split) if args.split else list(known)
    if args.json:
        print(json.dumps([_competition_row(c) for c in chosen], indent=2))
        return 0
    for line in table_lines(chosen):
        print(line)
    not_yet = known.unavailable.get(args.split, ()) if args.split else ()
    width = max((len(c.id) for c in chosen), default=len("id"))
    for cid in not_yet:
        print(f"{cid:<{width}}  not yet available (no competition folder in this release)")
    folder = data_dir(args)
    ready = {c.id for c in known if prepared_paths(c, folder).manifest.is_file()}
    print(f"\n{count_text(len(chosen))} defined, {len(ready & {c.id for c in chosen})} prepared "
          f"(data in {folder}; mlebench prepare -c ID makes it)")  # fmt: skip
    if not_yet:
        print(f"{len(not_yet)} more of split {args.split} not yet available (listed above)")
    for name, ids in sorted(known.splits.items()):
        missing = known.unavailable.get(name, ())
        note = f", {len(missing)} listed but not in this release" if missing else ""
        print(f"split {name}: {len(ids)} defined, {len(ready & set(ids))} prepared{note}")
    return 0


def count_text(count: int) -> str:
    """``1 competition``, ``89 competitions``."""
    return f"{count} competition" if count == 1 else f"{count} competitions"


COLUMNS = ("id", "complexity", "source", "modality", "metric", "direction")


def table_lines(competitions: list[Competition]) -> list[str]:
    """The table: each column as wide as its longest cell, so a long id never shifts a row."""
    rows = [
        (
            comp.id,
            comp.complexity,
            comp.source,
            comp.modality,
            comp.metric,
            "lower is better" if comp.lower_is_better else "higher is better",
        )
        for comp in competitions
    ]
    widths = [max(len(cells[i]) for cells in [COLUMNS, *rows]) for i in range(len(COLUMNS))]
    return [
        "  ".join(cell.ljust(width) for cell, width in zip(cells, widths, strict=True)).rstrip()
        for cells in [COLUMNS, *rows]
    ]


def _competition_row(comp: Competition) -> dict[str, object]:
    return {
        "id": comp.id,
        "name": comp.name,
        "complexity": comp.complexity,
        "source": comp.source,
        "modality": comp.modality,
        "metric": comp.metric,
        "lower_is_better": comp.lower_is_better,
        "splits": sorted(comp.splits),
        "time_limit": comp.time_limit,
        "leaderboard": _leaderboard_entry(comp),
        "known_issues": [issue.to_dict() for issue in comp.known_issues],
    }


def _leaderboard_entry(comp: Competition) -> dict[str, object] | None:
    """Rows and medal thresholds (Kaggle's rules, ``docs/medals.md``); ``None`` without a board."""
    limits = comp.thresholds
    if limits is None:
        return None
    return {
        "rows": len(comp.leaderboard_scores),
        **{medal: limits.of(medal) for medal in MEDALS},
        "median": limits.median,
    }
