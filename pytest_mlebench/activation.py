"""When the plugin wakes up in a pytest session, and the one call that wakes it.

pytest loads the ``pytest11`` entry point (:mod:`pytest_mlebench.plugin`) for every session of
every project in an environment where the plugin is installed. Such a session pays for the
plugin only if it uses it: the settings, the registry, the agent and the hooks that need them
(:mod:`pytest_mlebench.session_plugin`, with numpy, pyarrow and docker behind it) load when

- the session asks for it at configure time (:func:`asked_for`): one of its settings given as
  an ``--mle-*`` option, an ``mle_*`` ini key or its environment variable, ``--markers``, or an
  xdist worker whose controller handed it a sandbox plan; or
- it collects the benchmark test or a test asking for an ``mle_*`` fixture
  (:func:`is_benchmark_test`, from the plugin's own hooks at collection) or, on an xdist
  controller, a worker reports having collected the benchmark test
  (:func:`names_benchmark_tests`): the session has already started, so it wakes ``late``.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterable
from typing import Any

import pytest

from pytest_mlebench.settings import SETTINGS

SESSION_PLUGIN = "pytest_mlebench.session_plugin"
BENCHMARK_MODULE = "pytest_mlebench.benchmark"
FIXTURE_PREFIX = "mle_"
SESSION_ID_KEY = pytest.StashKey[str]()


def asked_for(config: pytest.Config) -> bool:
    """Whether this session asks for the plugin before collecting anything."""
    if getattr(config.option, "markers", False):
        return True
    workerinput: dict[str, Any] | None = getattr(config, "workerinput", None)
    if workerinput is not None and "mle_plan" in workerinput:
        return True
    return any(
        config.getoption(entry.dest, default=None) is not None
        or (entry.env is not None and entry.env in os.environ)
        or config.getini(entry.ini) not in (None, "", [])
        for entry in SETTINGS
    )


def is_benchmark_test(obj: object) -> bool:
    """Whether a collected object is one of the benchmark test functions, or a test of the
    project's own that asks for one of the plugin's ``mle_*`` fixtures by argument name."""
    if getattr(obj, "__module__", None) == BENCHMARK_MODULE:
        return True
    code = getattr(obj, "__code__", None)
    if code is None:
        return False
    arguments = code.co_varnames[: code.co_argcount + code.co_kwonlyargcount]
    return any(name.startswith(FIXTURE_PREFIX) for name in arguments)


def names_benchmark_tests(nodeids: Iterable[str]) -> bool:
    """Whether node ids an xdist worker collected hold a benchmark test (the test module reads
    its own node ids; it loads none of the engine)."""
    from pytest_mlebench.benchmark import run_param

    return any(run_param(nodeid) is not None for nodeid in nodeids)


def is_active(config: pytest.Config) -> bool:
    return config.pluginmanager.has_plugin(SESSION_PLUGIN)


def session_id(config: pytest.Config) -> str:
    """The id shared by the controller and its workers (handed on even while asleep)."""
    if SESSION_ID_KEY not in config.stash:
        workerinput: dict[str, Any] = getattr(config, "workerinput", None) or {}
        handed = workerinput.get("mle_session_id")
        config.stash[SESSION_ID_KEY] = str(handed) if handed else uuid.uuid4().hex[:12]
    return config.stash[SESSION_ID_KEY]


def activate(config: pytest.Config, *, late: bool) -> None:
    """Register the session's hooks and fixtures and configure the session (once)."""
    if is_active(config):
        return
    config.pluginmanager.import_plugin(SESSION_PLUGIN)
    from pytest_mlebench import session_plugin

    session_plugin.configure_session(config, session_id(config), late=late)


def worker_input(config: pytest.Config) -> dict[str, Any]:
    """What the xdist controller hands each worker: the session id, and the sandbox plan when
    the plugin is awake (a worker of a sleeping controller makes its own if it wakes)."""
    handed: dict[str, Any] = {"mle_session_id": session_id(config)}
    if is_active(config):
        from pytest_mlebench import session_plugin

        handed["mle_plan"] = session_plugin.plan_json(config)
    return handed
