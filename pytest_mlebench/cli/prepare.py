"""``mlebench prepare``: download (Kaggle) or take (``--from``) raw data and prepare it.

Order of the checks, so that a fresh machine meets each problem once: the Kaggle client and
credentials first (one message with every fix, before anything else; the competitions that need
no download are still prepared), then the free disk space, then the batch itself.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pytest_mlebench.cli.common import common, data_dir, registry, say
from pytest_mlebench.prepare_batch import (
    PrepareOutcome,
    all_prepared,
    prepare_batch,
    skipped_outcomes,
    summary_lines,
)
from pytest_mlebench.registry import Competition

if TYPE_CHECKING:
    from pytest_mlebench.kaggle import KaggleDownloader, LocalSource
    from pytest_mlebench.kaggle.plan import DiskPlan


def add_prepare(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser("prepare", help="download (Kaggle) and prepare competition data")
    common(parser)
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
        "competitions a folder holding <id>.zip files or <id>/ folders; a second public file "
        "a competition needs (freesound-audio-tagging-2019's FSDKaggle2019.meta.zip) is taken "
        "from beside the zip or from the folder",
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
        "--drop-raw",
        action="store_true",
        help="delete each Kaggle competition's raw/ files once its prepared data is verified "
        "(SHA-256), so the disk holds the data once; preparing again then downloads it again",
    )
    parser.add_argument(
        "--references",
        action="store_true",
        help="instead of the data, fetch the reference notebooks of the chosen competitions "
        "(their kernels.txt) with your Kaggle account, for the similarity check; resumable",
    )
    parser.add_argument(
        "--skip-disk-check",
        action="store_true",
        help="start even when the estimated disk need exceeds the free space",
    )
    parser.set_defaults(handler=cmd_prepare)


def cmd_prepare(args: argparse.Namespace) -> int:
    known = registry(args)
    if args.all:
        chosen = list(known)
    elif args.split:
        chosen = known.split(args.split)
    else:
        chosen = [known.get(cid) for cid in args.competition]
    folder = data_dir(args)
    if args.references:
        return fetch_references(chosen, folder)
    fetch_raw = _raw_fetcher(args, batch=len(args.competition or ()) != 1)
    not_yet = known.unavailable.get(args.split, ()) if args.split else ()
    left_out: list[PrepareOutcome] = []
    if not args.dry_run:
        chosen, left_out = _without_unreachable_kaggle(chosen, folder, fetch_raw)
        if left_out and not chosen:
            return 1
    if args.dry_run or not args.skip_disk_check:
        plan = _disk_plan(chosen, folder, fetch_raw, not_yet)
        if args.dry_run:
            for line in plan.lines():
                say(line)
            return 0
        plan.require_space()
    outcomes = prepare_batch(
        chosen,
        folder,
        force=args.force,
        say=say,
        fetch_raw=fetch_raw,
        verify=args.verify,
        drop_raw=args.drop_raw,
    )
    outcomes += left_out
    for line in summary_lines(outcomes, folder):
        say(line)
    return 0 if all_prepared(outcomes) else 1


def _without_unreachable_kaggle(
    chosen: list[Competition], folder: Path, fetch_raw: KaggleDownloader | LocalSource
) -> tuple[list[Competition], list[PrepareOutcome]]:
    """The competitions to prepare, and those left out because they need a download from a
    Kaggle that is not set up here (said once, with every fix)."""
    from pytest_mlebench.kaggle import KaggleDownloader
    from pytest_mlebench.kaggle.plan import needs_kaggle

    needing = [c for c in chosen if needs_kaggle(c, folder)]
    if not needing or not isinstance(fetch_raw, KaggleDownloader):
        return chosen, []
    problem = fetch_raw.setup_problem()
    if problem is None:
        return chosen, []
    rest = [c for c in chosen if c not in needing]
    print(kaggle_setup_message(problem, len(needing), len(chosen)), file=sys.stderr, flush=True)
    detail = "its data comes from Kaggle, which is not set up here (see the first lines)"
    return rest, skipped_outcomes(needing, detail)


def kaggle_setup_message(problem: str, needing: int, chosen: int) -> str:
    """The one message for a Kaggle that cannot be used: what is missing, each fix, the ways
    around it (``--from``, the embedded split)."""
    if needing == chosen:
        which = (
            "the competition chosen needs"
            if chosen == 1
            else f"all {chosen} competitions chosen need"
        )
    else:
        which = f"{needing} of the {chosen} competitions chosen need"
    go_on = "" if needing == chosen else "; the others are prepared now"
    return (
        f"mlebench: {which} a download from Kaggle, which cannot be "
        f"used here: {problem}.\nFix that and run this command again, or prepare from raw "
        "files you already have with --from PATH; the embedded competitions need neither "
        f"(mlebench prepare --split embedded){go_on}"
    )


def _raw_fetcher(args: argparse.Namespace, *, batch: bool) -> KaggleDownloader | LocalSource:
    from pytest_mlebench.kaggle import KaggleDownloader, LocalSource

    if args.from_path is not None:
        return LocalSource(args.from_path, batch=batch)
    return KaggleDownloader(say=say, fetch_leaderboards=True)


def _disk_plan(
    chosen: list[Competition],
    folder: Path,
    fetch_raw: KaggleDownloader | LocalSource,
    not_yet: Sequence[str] = (),
) -> DiskPlan:
    from pytest_mlebench.kaggle import LocalSource
    from pytest_mlebench.kaggle.plan import plan_batch

    if isinstance(fetch_raw, LocalSource):
        return plan_batch(chosen, folder, local=fetch_raw, not_yet=not_yet)
    return plan_batch(chosen, folder, kaggle_size=fetch_raw.download_size, not_yet=not_yet)


def fetch_references(chosen: Sequence[Competition], folder: Path) -> int:
    """``--references``: each chosen competition's ``kernels.txt`` notebooks into ``folder``
    (:mod:`pytest_mlebench.kaggle.references`); 1 when Kaggle cannot be used or a kernel is
    missing, so a script can tell."""
    from pytest_mlebench.kaggle import client
    from pytest_mlebench.kaggle.references import KERNELS_FILE, ReferenceFetcher, read_kernel_list

    listed = [c for c in chosen if read_kernel_list(c.folder / KERNELS_FILE)]
    for competition in chosen:
        if competition not in listed:
            say(f"{competition.id}: no reference notebooks listed in {KERNELS_FILE}; nothing to do")
    problem = client.setup_problem() if listed else None
    if problem is not None:
        print(kaggle_setup_message(problem, len(listed), len(chosen)), file=sys.stderr, flush=True)
        return 1
    fetcher, complete = ReferenceFetcher(say=say), True
    for competition in listed:
        try:
            report = fetcher.fetch(competition.id, competition.folder / KERNELS_FILE, folder)
        except client.KaggleUnavailable as exc:
            print(f"mlebench: {exc}", file=sys.stderr, flush=True)
            return 1
        say(report.line())
        for ref, why in report.missing.items():
            say(f"  missing {ref}: {why}")
        complete = complete and not report.missing
    return 0 if complete else 1
