"""The ``mlebench`` command: list, prepare, grade, grade-sample, agents, sandbox, report,
leaderboard, doctor.

Each subcommand reuses the functions the pytest plugin calls. The shared options (``--data-dir``,
``--competitions-dir``, ``report --max-drop``) are the ``--mle-*`` settings of the same names,
declared and resolved by :mod:`pytest_mlebench.settings` (CLI > environment > default).
Exit status: 0 success, 1 the command ran but found a problem (invalid submission, failed
prepare), 2 bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_mlebench.data import prepare_competition
from pytest_mlebench.errors import MLEBenchError, SettingError
from pytest_mlebench.grading import grade_submission
from pytest_mlebench.medals import MEDALS
from pytest_mlebench.prepare_batch import all_prepared, prepare_batch, summary_lines
from pytest_mlebench.registry import Competition, Registry, load_registry
from pytest_mlebench.report.mlebench_compat import bulk_grading_report, grade_json
from pytest_mlebench.settings import add_cli_options, cli_value

if TYPE_CHECKING:
    from pytest_mlebench.kaggle import KaggleDownloader, LocalSource
    from pytest_mlebench.kaggle.plan import DiskPlan


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mlebench", description="Prepare, list and grade MLE-bench competitions."
    )
    commands = parser.add_subparsers(title="commands", metavar="COMMAND")
    _add_list(commands)
    _add_prepare(commands)
    _add_grade_sample(commands)
    _add_grade(commands)
    _add_agents(commands)
    _add_sandbox(commands)
    from pytest_mlebench.report.command import add_report_command

    add_report_command(commands)
    _add_leaderboard(commands)
    from pytest_mlebench.doctor import add_doctor_command

    add_doctor_command(commands, _common)
    from pytest_mlebench.integrity.offline import add_integrity_command

    add_integrity_command(commands, _common)
    from pytest_mlebench.local_model.command import add_model_command

    add_model_command(commands)
    return parser


SHARED_SETTINGS = ("data-dir", "competitions-dir")


def _common(parser: argparse.ArgumentParser) -> None:
    add_cli_options(parser, *SHARED_SETTINGS)


def _data_dir(args: argparse.Namespace) -> Path:
    folder: Path = cli_value(args, "data-dir")
    return folder


def _registry(args: argparse.Namespace) -> Registry:
    folders: tuple[Path, ...] = cli_value(args, "competitions-dir")
    return load_registry(folders)


# -- list ---------------------------------------------------------------------------------------


def _add_list(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("list", help="list competitions and splits")
    _common(parser)
    parser.add_argument("--split", help="only competitions of this split")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.set_defaults(handler=cmd_list)


def cmd_list(args: argparse.Namespace) -> int:
    registry = _registry(args)
    chosen = registry.split(args.split) if args.split else list(registry)
    if args.json:
        print(json.dumps([_competition_row(c) for c in chosen], indent=2))
        return 0
    header = (
        f"{'id':<28} {'complexity':<10} {'source':<9} {'modality':<15} {'metric':<28} direction"
    )
    print(header)
    for comp in chosen:
        direction = "lower is better" if comp.lower_is_better else "higher is better"
        print(
            f"{comp.id:<28} {comp.complexity:<10} {comp.source:<9} {comp.modality:<15} "
            f"{comp.metric:<28} {direction}"
        )
    print(f"\n{len(chosen)} competitions")
    for name, ids in sorted(registry.splits.items()):
        missing = registry.unavailable.get(name, ())
        note = f", {len(missing)} listed but not in this release" if missing else ""
        print(f"split {name}: {len(ids)} available{note}")
    return 0


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


# -- prepare ------------------------------------------------------------------------------------


def _add_prepare(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("prepare", help="download (Kaggle) and prepare competition data")
    _common(parser)
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("-c", "--competition", action="append", help="competition id (repeatable)")
    which.add_argument("--split", help="every competition of a split, e.g. embedded or lite")
    which.add_argument(
        "--lite", action="store_const", const="lite", dest="split", help="same as --split lite"
    )
    which.add_argument("--all", action="store_true", help="every competition")
    parser.add_argument("--force", action="store_true", help="prepare again even if up to date")
    parser.add_argument(
        "--from",
        dest="from_path",
        type=Path,
        metavar="PATH",
        help="raw files from here instead of Kaggle (no network, no credentials): Kaggle's "
        "<id>.zip or a folder of the extracted raw files for one -c ID; for several "
        "competitions a folder holding <id>.zip files or <id>/ folders",
    )
    parser.add_argument(
        "--dry-run",
        action="store_true",
        help="print what would be downloaded and the disk needed per competition, then stop",
    )
    parser.add_argument(
        "--verify",
        action="store_true",
        help="re-hash every prepared file (SHA-256) instead of trusting sizes and times",
    )
    parser.add_argument(
        "--skip-disk-check",
        action="store_true",
        help="start even when the estimated disk need exceeds the free space",
    )
    parser.set_defaults(handler=cmd_prepare)


def cmd_prepare(args: argparse.Namespace) -> int:
    registry = _registry(args)
    if args.all:
        chosen = list(registry)
    elif args.split:
        chosen = registry.split(args.split)
    else:
        chosen = [registry.get(cid) for cid in args.competition]
    data_dir = _data_dir(args)
    fetch_raw = _raw_fetcher(args, batch=len(args.competition or ()) != 1)
    if args.dry_run or not args.skip_disk_check:
        plan = _disk_plan(chosen, data_dir, fetch_raw)
        if args.dry_run:
            for line in plan.lines():
                _say(line)
            return 0
        plan.require_space()
    outcomes = prepare_batch(
        chosen, data_dir, force=args.force, say=_say, fetch_raw=fetch_raw, verify=args.verify
    )
    for line in summary_lines(outcomes, data_dir):
        _say(line)
    return 0 if all_prepared(outcomes) else 1


def _raw_fetcher(args: argparse.Namespace, *, batch: bool) -> KaggleDownloader | LocalSource:
    from pytest_mlebench.kaggle import KaggleDownloader, LocalSource

    if args.from_path is not None:
        return LocalSource(args.from_path, batch=batch)
    return KaggleDownloader(say=_say, fetch_leaderboards=True)


def _disk_plan(
    chosen: list[Competition], data_dir: Path, fetch_raw: KaggleDownloader | LocalSource
) -> DiskPlan:
    from pytest_mlebench.kaggle import LocalSource
    from pytest_mlebench.kaggle.plan import plan_batch

    if isinstance(fetch_raw, LocalSource):
        return plan_batch(chosen, data_dir, local=fetch_raw)
    return plan_batch(chosen, data_dir, kaggle_size=fetch_raw.download_size)


def _say(line: str) -> None:
    print(line, flush=True)


# -- grading ------------------------------------------------------------------------------------


def _add_grade_sample(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "grade-sample", help="grade one submission file and print the report as JSON"
    )
    _common(parser)
    parser.add_argument("submission", type=Path, help="the submission CSV")
    parser.add_argument("competition_id", help="the competition it was made for")
    parser.set_defaults(handler=cmd_grade_sample)


def cmd_grade_sample(args: argparse.Namespace) -> int:
    comp = _registry(args).get(args.competition_id)
    paths = prepare_competition(comp, _data_dir(args))
    report = grade_submission(args.submission, comp, paths.answers)
    print(grade_json(report))
    return 0 if report.valid_submission else 1


def _add_grade(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "grade", help="grade every submission listed in a submission.jsonl file"
    )
    _common(parser)
    parser.add_argument(
        "--submission",
        type=Path,
        required=True,
        help="JSON lines: competition_id, submission_path per line",
    )
    parser.add_argument(
        "--output-dir", type=Path, required=True, help="folder for the aggregated grading report"
    )
    parser.set_defaults(handler=cmd_grade)


def cmd_grade(args: argparse.Namespace) -> int:
    from pytest_mlebench.bulk import check_competitions, grade_many, read_submission_list

    registry = _registry(args)
    listing = check_competitions(read_submission_list(args.submission), registry)
    for skipped in listing.skipped:
        print(f"mlebench: error: {skipped}", file=sys.stderr, flush=True)
    report = bulk_grading_report(grade_many(listing.entries, registry, _data_dir(args)))
    args.output_dir.mkdir(parents=True, exist_ok=True)
    out = args.output_dir / "grading_report.json"
    out.write_text(json.dumps(report, indent=2), "utf-8")
    print(
        f"graded {report['total_runs']} submissions: {report['total_valid_submissions']} valid, "
        f"{report['total_medals']} medals; report written to {out}"
    )
    if listing.skipped:
        print(f"{len(listing.skipped)} line(s) of {args.submission} skipped (see above)")
        return 1
    return 0


# -- agents and sandbox -------------------------------------------------------------------------


def _add_agents(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("agents", help="list the built-in agents")
    parser.set_defaults(handler=cmd_agents)


def cmd_agents(args: argparse.Namespace) -> int:
    from pytest_mlebench.agents import BUILTIN_AGENTS

    for name, text in BUILTIN_AGENTS.items():
        print(f"{name:<10} {text}")
    print("or pass --mle-agent PATH for an agent folder with config.yaml (docs/agents.md)")
    return 0


def _add_sandbox(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("sandbox", help="build the Docker image or clean up containers")
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    build = actions.add_parser("build", help="build an image profile (offline-capable)")
    build.add_argument("--force", action="store_true", help="rebuild even if the image exists")
    _profile_option(build)
    build.add_argument(
        "--wheelhouse",
        type=Path,
        metavar="DIR",
        help="prepared folder of the lock's wheels (air-gapped; default: download them with "
        "this machine's pip into $XDG_CACHE_HOME/mlebench/wheels)",
    )
    build.set_defaults(handler=cmd_sandbox_build)
    lock = actions.add_parser(
        "lock", help="resolve a profile's requirements.in into requirements.lock with hashes"
    )
    _profile_option(lock, default="ml")
    lock.set_defaults(handler=cmd_sandbox_lock)
    cleanup = actions.add_parser(
        "cleanup", help="remove sandbox containers whose session is gone (--all: every one)"
    )
    cleanup.add_argument(
        "--all", action="store_true", help="also remove containers of sessions still running"
    )
    cleanup.set_defaults(handler=cmd_sandbox_cleanup)
    status = actions.add_parser(
        "status", help="say whether a Docker engine answers and which profile images are built"
    )
    status.set_defaults(handler=cmd_sandbox_status)


def _profile_option(parser: argparse.ArgumentParser, default: str = "base") -> None:
    from pytest_mlebench.sandbox.docker.profiles import PROFILES

    parser.add_argument(
        "--profile",
        default=default,
        choices=list(PROFILES),
        help="; ".join(f"{name}: {text}" for name, text in PROFILES.items()),
    )


def cmd_sandbox_status(args: argparse.Namespace) -> int:
    from pytest_mlebench.sandbox import docker_status

    ok, why = docker_status()
    print("docker: available" if ok else f"docker: not available ({why})")
    if ok:
        from pytest_mlebench.sandbox.docker.profiles import profile_states

        for name, tag, built in profile_states():
            print(f"profile {name:<5} {tag} {'built' if built else 'not built'}")
    return 0 if ok else 1


def cmd_sandbox_build(args: argparse.Namespace) -> int:
    from pytest_mlebench.sandbox.docker.profiles import build_profile

    started = time.monotonic()
    image = build_profile(
        args.profile,
        wheels_from=args.wheelhouse,
        force=args.force,
        progress=lambda line: print(line, flush=True),
    )
    print(f"image ready: {image} ({time.monotonic() - started:.0f} s)")
    return 0


def cmd_sandbox_lock(args: argparse.Namespace) -> int:
    from pytest_mlebench.sandbox.docker.profiles import lock_profile

    lock, count = lock_profile(args.profile, progress=lambda line: print(line, flush=True))
    print(f"wrote {lock} ({count} pinned packages)")
    return 0


def cmd_sandbox_cleanup(args: argparse.Namespace) -> int:
    from pytest_mlebench.sandbox.docker import reap_containers

    removed = reap_containers(None, include_live=args.all)
    print(f"removed {removed} container(s)")
    return 0


# -- leaderboard --------------------------------------------------------------------------------


def _add_leaderboard(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("leaderboard", help="fetch a competition's board from Kaggle")
    actions = parser.add_subparsers(title="actions", metavar="ACTION")
    fetch = actions.add_parser(
        "fetch",
        help="fetch the board through the Kaggle API, save it in the data dir (never over the "
        "shipped one) and compare row count and medal thresholds with the shipped board",
    )
    _common(fetch)
    fetch.add_argument("competition_id", help="the competition")
    fetch.set_defaults(handler=cmd_leaderboard_fetch)


def cmd_leaderboard_fetch(args: argparse.Namespace) -> int:
    from pytest_mlebench.kaggle import client
    from pytest_mlebench.kaggle.leaderboard import fetch_leaderboard

    competition = _registry(args).get(args.competition_id)
    board = fetch_leaderboard(client.new_api(), competition, _data_dir(args))
    for line in board.report_lines():
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
