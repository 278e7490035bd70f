"""Links from the HTML page to each run's folder: its agent log, submission and grade.

The runner keeps every run's files in ``reports/runs/<run id>/`` (the record's ``run_dir``);
the page links there with paths relative to its own folder, so the page and the runs folder can
be copied or served together.
"""

from __future__ import annotations

import os
from html import escape
from pathlib import Path
from typing import Any

RUN_FILES = (("agent log", "agent.log"), ("submission", "submission.csv"), ("grade", "grade.json"))


def run_links_html(href: str | None) -> str:
    """Links to the run's folder and its agent log, submission and grade (``with_run_links``)."""
    if not href:
        return ""
    folder = escape(href, quote=True)
    links = [f'<a href="{folder}/">folder</a>']
    links += [f'<a href="{folder}/{name}">{label}</a>' for label, name in RUN_FILES]
    return f' <small class="links">{" · ".join(links)}</small>'


def with_run_links(summary: dict[str, Any], page_dir: Path) -> dict[str, Any]:
    """``summary`` with each run's folder (``run_dir``) as ``href``, relative to ``page_dir``
    (so the page and ``reports/runs/`` can move together); runs without a folder get none."""
    base = page_dir.resolve()
    competitions = []
    for entry in summary.get("competitions") or ():
        runs = [
            {**run, "href": Path(os.path.relpath(Path(run["run_dir"]).resolve(), base)).as_posix()}
            if run.get("run_dir")
            else run
            for run in entry.get("runs") or ()
        ]
        competitions.append({**entry, "runs": runs})
    return {**summary, "competitions": competitions}
