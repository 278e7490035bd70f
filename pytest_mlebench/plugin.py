"""pytest hooks of pytest-mlebench: the ``pytest11`` entry point. Hooks only: each one delegates.

pytest imports this module for every session in an environment where the plugin is installed,
so it imports nothing heavy: it declares the hooks and options (``pytest --help`` lists them)
and wakes the rest of the plugin (:mod:`pytest_mlebench.session_plugin`) only for a session that
asks for it or collects its benchmark test (:mod:`pytest_mlebench.activation`). A session that
uses nothing of the plugin loads neither numpy, pyarrow nor docker.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from pytest_mlebench import hookspecs
from pytest_mlebench.activation import (
    activate,
    asked_for,
    is_active,
    is_benchmark_test,
    names_benchmark_tests,
    worker_input,
)
from pytest_mlebench.markers import register_fixed_markers
from pytest_mlebench.settings import add_options

pytest_plugins = ["pytest_mlebench.usage_checks"]


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    pluginmanager.add_hookspecs(hookspecs)


def pytest_addoption(parser: pytest.Parser) -> None:
    add_options(parser)


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    register_fixed_markers(config)
    if asked_for(config):
        activate(config, late=False)


@pytest.hookimpl(tryfirst=True)
def pytest_pycollect_makeitem(collector: pytest.Collector, name: str, obj: object) -> None:
    """Wake the plugin when the benchmark test is collected (before its fixtures are resolved)."""
    if is_benchmark_test(obj):
        activate(collector.config, late=True)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node: Any) -> None:
    """xdist controller: hand the session id (and, when awake, the sandbox plan) to a worker."""
    node.workerinput.update(worker_input(node.config))


@pytest.hookimpl(optionalhook=True, tryfirst=True)
def pytest_xdist_node_collection_finished(node: Any, ids: Sequence[str]) -> None:
    """xdist controller: wake when a worker collected the benchmark test."""
    if not is_active(node.config) and names_benchmark_tests(ids):
        activate(node.config, late=True)
