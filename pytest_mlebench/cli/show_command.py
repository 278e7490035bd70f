"""``mlebench show RUN_ID|RUN_DIR``: a run's page, from the terminal.

The page is the one the session's HTML report links (:mod:`pytest_mlebench.report.run_page`):
the command writes it into the run's folder (or ``--output``), prints its path and, on a
terminal, opens it in the browser. With ``--print``, or when the output is not a terminal, it
prints the steps as text instead (the page is still written). A run id is looked up in the
``runs/`` folder beside the results file (``--results``, default ``reports/results.jsonl``);
a unique prefix of an id is enough.
"""

from __future__ import annotations

import argparse
import sys
import webbrowser
from pathlib import Path

from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.report.run_page import load_run_page, render_run_page, steps_text
from pytest_mlebench.report.run_page.pages import PAGE_NAME
from pytest_mlebench.settings import add_cli_options, cli_value
from pytest_mlebench.suggest import closest, did_you_mean


class ShowError(MLEBenchError):
    """A run id that names no run folder (or several), or a page that cannot be written."""


def add_show(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "show", help="write and open a run's page (its steps, files, findings, grade), or print it"
    )
    parser.add_argument("run", help="a run id (reports/runs/<run id>) or a run's folder")
    add_cli_options(parser, "results")
    parser.add_argument(
        "--print",
        dest="as_text",
        action="store_true",
        help="print the steps as text (the default when the output is not a terminal)",
    )
    parser.add_argument(
        "--output",
        type=Path,
        metavar="FILE",
        help=f"write the page here (default RUN_DIR/{PAGE_NAME})",
    )
    parser.add_argument("--no-open", action="store_true", help="write the page, do not open it")
    parser.set_defaults(handler=cmd_show)


def cmd_show(args: argparse.Namespace) -> int:
    run_dir = find_run(args.run, cli_value(args, "results"))
    page = load_run_page(run_dir)
    target = args.output or run_dir / PAGE_NAME
    try:
        target.write_text(render_run_page(page), "utf-8")
    except OSError as exc:
        raise ShowError(
            f"cannot write the run's page to {target} ({exc.strerror or exc}); "
            "write it elsewhere with --output FILE"
        ) from exc
    if args.as_text or not sys.stdout.isatty():
        sys.stdout.write(steps_text(page))
        print(f"page: {target}", file=sys.stderr)
        return 0
    print(target)
    if not args.no_open:
        webbrowser.open(target.resolve().as_uri())
    return 0


def find_run(run: str, results: Path) -> Path:
    """The folder of ``run``: a folder given as it is, else ``<results' folder>/runs/<run>``
    (a unique prefix of the id is enough).

    Raises:
        ShowError: When no folder, or more than one, answers to ``run``.
    """
    given = Path(run)
    if given.is_dir():
        return given
    runs = results.parent / "runs"
    if (runs / run).is_dir():
        return runs / run
    known = sorted(p.name for p in runs.iterdir() if p.is_dir()) if runs.is_dir() else []
    matching = [name for name in known if name.startswith(run)]
    if len(matching) == 1:
        return runs / matching[0]
    if matching:
        raise ShowError(
            f"{run!r} is the start of {len(matching)} run ids in {runs} "
            f"({', '.join(matching[:5])}); give more of the id"
        )
    where = f"{runs} has no runs" if not known else f"no run {run!r} in {runs}"
    raise ShowError(
        f"{where}{did_you_mean(closest(run, known))}; pass a run folder, or the results file "
        "of the session that made the run with --results FILE (its runs are in runs/ beside it)"
    )
