"""A page per run: the agent's steps in order, and what the harness saw, from the run's folder.

:func:`load_run_page` reads a run folder (``reports/runs/<run id>/``) into a
:class:`~.model.RunPage`: the LLM turns of the gateway's transcript, the commands or search nodes
of the agent's trajectory, the validator's calls and the timed lines of the agent's log, merged
in time order, with the files written, the integrity findings, the resources and the grade.
:func:`write_run_page` writes it as ``run.html`` in that folder (one self-contained file, no
script); :func:`steps_text` is the terminal's form. The session's HTML page links each run to
its page (:func:`write_run_pages`), and ``mlebench show`` writes or prints one.
"""

from __future__ import annotations

from pytest_mlebench.report.run_page.assemble import RunFolderError, load_run_page
from pytest_mlebench.report.run_page.html_page import render_run_page
from pytest_mlebench.report.run_page.model import RunPage, Step, SubmissionCopy
from pytest_mlebench.report.run_page.pages import PAGE_NAME, write_run_page, write_run_pages
from pytest_mlebench.report.run_page.text_form import steps_text

__all__ = [
    "PAGE_NAME",
    "RunFolderError",
    "RunPage",
    "Step",
    "SubmissionCopy",
    "load_run_page",
    "render_run_page",
    "steps_text",
    "write_run_page",
    "write_run_pages",
]
