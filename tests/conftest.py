"""Hooks of the whole suite: its xdist groups (``tests/xdist_groups.py``)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.xdist_groups import GroupScheduling, make_scheduler


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    return make_scheduler(config, log, GroupScheduling)
