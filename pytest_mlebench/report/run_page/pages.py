"""Where a run's page is written (``run.html`` in the run's folder) and the session page's links.

The session's HTML report writes the page of every run whose folder is on this machine, so each
run's row can link to it; a run whose folder cannot be read gets no page and no link, and the
report goes on (a run page is never a reason for the session's report to fail).
"""

from __future__ import annotations

import logging
from html import escape
from pathlib import Path
from typing import Any

from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.run_page.assemble import RunFolderError, load_run_page
from pytest_mlebench.report.run_page.html_page import render_run_page

log = logging.getLogger(__name__)
PAGE_NAME = "run.html"


def write_run_page(run_dir: Path, record: RunRecord | None = None, out: Path | None = None) -> Path:
    """Write the page of the run in ``run_dir`` (to ``out``, else ``run_dir/run.html``).

    Raises:
        RunFolderError: When the folder has no readable ``record.json`` (and no ``record``).
    """
    target = out or run_dir / PAGE_NAME
    target.write_text(render_run_page(load_run_page(run_dir, record)), "utf-8")
    return target


def write_run_pages(summary: dict[str, Any]) -> dict[str, Any]:
    """Write the page of every run of ``summary`` whose folder is here; returns ``summary``
    with ``run_page: True`` on those runs (what :func:`run_page_link` links)."""
    competitions = []
    for entry in summary.get("competitions") or ():
        runs = [
            {**run, "run_page": True} if _written(run) else run for run in entry.get("runs") or ()
        ]
        competitions.append({**entry, "runs": runs})
    return {**summary, "competitions": competitions}


def _written(run: dict[str, Any]) -> bool:
    folder = run.get("run_dir")
    if not folder or not (Path(folder) / "record.json").is_file():
        return False
    try:
        write_run_page(Path(folder))
    except (OSError, RunFolderError) as exc:
        log.warning("no page for run %s: %s", run.get("run_id") or folder, exc)
        return False
    return True


def run_page_link(href: str | None) -> str:
    """`` steps`` linking the run's page, from the session page (``href``: the run's folder)."""
    if not href:
        return ""
    return f' <a class="run-page" href="{escape(href, quote=True)}/{PAGE_NAME}">steps</a>'
