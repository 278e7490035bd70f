"""``mlebench eng from-pr``: build an engineering task from a repository's own change.

The command only parses options and prints the result; the work is
:func:`pytest_mlebench.eng.from_pr.pr_task.build_task`. Errors (not a repository, unknown ref, no
tests, nothing to fix, no wheelhouse for docker, pytest missing, ``--out`` inside the repository)
come back as one line naming the fix, exit status 1. Relative paths are the caller's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path


def add_eng(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("eng", help="engineering tasks: build one from a pull request")
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    from_pr = actions.add_parser(
        "from-pr",
        help="make a task folder from --base..--head: the tests the change broke must pass again",
        description="Run the repository's pytest suite at base and at head (offline), and write a "
        "task folder whose fail-to-pass tests are the ones the change broke.",
    )
    from_pr.add_argument("--base", required=True, help="the ref before the change (origin/main)")
    from_pr.add_argument("--head", default="HEAD", help="the ref with the change (default HEAD)")
    from_pr.add_argument("--repo", type=Path, default=Path("."), help="the repository (default .)")
    from_pr.add_argument(
        "--out",
        type=Path,
        help="folder of task folders, outside the repository; summary.md goes here "
        "(default mlebench-tasks beside the repository)",
    )
    from_pr.add_argument("--id", dest="task_id", help="the task id (default pr-<head commit>)")
    from_pr.add_argument(
        "--backend",
        choices=("local", "docker"),
        default="local",
        help="where the suite runs: this machine's Python, or the eng image "
        "with --network none (default local)",
    )
    from_pr.add_argument(
        "--python",
        default=sys.executable,
        help="local backend: the interpreter with the repository's dependencies",
    )
    from_pr.add_argument(
        "--image",
        default="pytest-mlebench-eng:latest",
        help="docker backend: the image (default the eng profile's)",
    )
    from_pr.add_argument(
        "--wheelhouse",
        type=Path,
        help="docker backend: wheels of the repository's dependencies (required)",
    )
    from_pr.add_argument(
        "--timeout",
        type=float,
        default=600.0,
        help="seconds one run of the suite may take (default 600)",
    )
    from_pr.set_defaults(handler=cmd_from_pr)


def cmd_from_pr(args: argparse.Namespace) -> int:
    from pytest_mlebench.eng.from_pr.pr_task import Request, build_task
    from pytest_mlebench.eng.from_pr.suite_runner import Backend

    backend = Backend(
        kind=args.backend,
        python=args.python,
        image=args.image,
        wheelhouse=args.wheelhouse.resolve() if args.wheelhouse is not None else None,
        timeout_s=args.timeout,
    )
    built = build_task(Request(args.repo, args.base, args.head, args.out, args.task_id, backend))
    split = built.change.split
    print(
        f"{built.folder}: {len(split.fail_to_pass)} fail-to-pass, "
        f"{len(split.pass_to_pass)} pass-to-pass, {len(split.left_out)} left out"
    )
    for test, why in sorted(split.left_out.items()):
        print(f"  left out {test}: {why}")
    print(f"summary: {built.summary}")
    return 0
