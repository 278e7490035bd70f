"""Modality detection: which data layout the competition's files have, and the solver for it.

Checked in this order, the first that fits wins: ranked lists to predict (recommendation), a
``train/`` folder of images, long-format series files, survival columns, else a table.
"""

from __future__ import annotations

import logging

import pandas as pd

from .images import has_images, solve_images
from .ranking import is_ranking, solve_ranking
from .series import find_series_files, solve_series
from .survival import solve_survival, survival_columns
from .tables import solve_table
from .task import Task

LOG = logging.getLogger("baseline")


def solve(task: Task) -> pd.DataFrame:
    """Pick the solver for the layout found and return the submission frame."""
    if is_ranking(task):
        LOG.info("layout: recommendation (ranked lists)")
        return solve_ranking(task)
    image_dir = task.env.data / "train"
    if image_dir.is_dir() and has_images(image_dir):
        LOG.info("layout: image folders")
        return solve_images(task)
    series = find_series_files(task)
    if series is not None:
        LOG.info("layout: long-format series %s", [p.name for p in series])
        return solve_series(task, *series)
    survival = survival_columns(task)
    if survival is not None:
        LOG.info("layout: survival (time %r, event %r)", *survival)
        return solve_survival(task, *survival)
    return solve_table(task)
