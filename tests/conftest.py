"""Hooks of the whole suite: its xdist groups (``tests/xdist_groups.py``), and the host's image
indexes (:mod:`pytest_mlebench.integrity.inventory_index`) kept in a folder of the test process
(the sessions it starts inherit it), never in the user's cache."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import pytest

from pytest_mlebench.integrity.inventory_index import INDEX_DIR_ENV
from tests.xdist_groups import GroupScheduling, make_scheduler

os.environ.setdefault(INDEX_DIR_ENV, tempfile.mkdtemp(prefix="mlebench-image-index-"))


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    return make_scheduler(config, log, GroupScheduling)
