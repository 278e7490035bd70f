"""Shared helpers of pr-regression-unit-test's verifier: git and pytest on the agent's repo."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from mlebench_agent_code import agent_module
from mlebench_agent_run import Finished, run_agent, suite_command

GIT_ENV = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory", "GIT_CONFIG_VALUE_0": "*"}


def git(work: Path, *args: str) -> Finished:
    """git through the verifier's door: the repository's own config (hooks, ``core.fsmonitor``)
    is the agent's, so whatever it makes git run never runs as the verifier."""
    return run_agent(["git", *args], cwd=work, writable=(work,), env=GIT_ENV, timeout_s=30)


def visible_tests(work: Path, *node_ids: str) -> Finished:
    """The image's pytest over the agent's visible tests (a ``pytest/`` folder of the
    workspace cannot stand in for it)."""
    return run_agent(
        suite_command(work, "-q", *node_ids), cwd=work, writable=(work,),
        env={"PYTHONDONTWRITEBYTECODE": "1"}, timeout_s=60,
    )  # fmt: skip


@pytest.fixture(scope="session")
def facts() -> dict[str, Any]:
    result: dict[str, Any] = json.loads(
        (Path(os.environ["PRIVATE_DIR"]) / "commits.json").read_text()
    )
    return result


@pytest.fixture(scope="session")
def intervals() -> Any:
    """The agent's ``intervals`` module, imported in a child process as another user."""
    return agent_module("intervals", Path(os.environ["WORK_DIR"]))
