"""``mlebench list --kind engineering``: the engineering tasks and splits, as a table or JSON."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from pytest_mlebench.eng.task import EngTask
from pytest_mlebench.eng.task_registry import load_eng_registry
from pytest_mlebench.settings import cli_value

COLUMNS = ("id", "category", "complexity", "image", "checks", "gates", "time limit")


def task_rows(tasks: list[EngTask]) -> list[tuple[str, ...]]:
    return [
        (
            task.id,
            task.category,
            task.complexity,
            task.image,
            str(len(task.checks)),
            str(sum(check.gate for check in task.checks)),
            f"{task.time_limit} s",
        )
        for task in tasks
    ]


def print_tasks(args: argparse.Namespace) -> int:
    """Print the session's engineering tasks (``--split`` filters, ``--json`` for JSON)."""
    folders: tuple[Path, ...] = cli_value(args, "engineering-dir")
    known = load_eng_registry(folders)
    chosen = [t for t in known if not args.split or args.split in t.splits]
    if args.json:
        print(json.dumps([_json_row(task) for task in chosen], indent=2))
        return 0
    rows = [COLUMNS, *task_rows(chosen)]
    widths = [max(len(cells[i]) for cells in rows) for i in range(len(COLUMNS))]
    for cells in rows:
        print("  ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)).rstrip())
    print(f"\n{len(chosen)} engineering tasks")
    for name, ids in sorted(known.splits.items()):
        missing = known.unavailable.get(name, ())
        note = f", {len(missing)} listed but not in this release" if missing else ""
        print(f"split {name}: {len(ids)} available{note}")
    return 0


def _json_row(task: EngTask) -> dict[str, object]:
    return {
        "id": task.id,
        "kind": "engineering",
        "name": task.name,
        "category": task.category,
        "complexity": task.complexity,
        "image": task.image,
        "splits": sorted(task.splits),
        "time_limit": task.time_limit,
        "checks": [check.id for check in task.checks],
        "gates": [check.id for check in task.checks if check.gate],
        "requirements": dict(task.requirements),
    }
