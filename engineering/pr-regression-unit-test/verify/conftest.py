"""Shared helpers of pr-regression-unit-test's verifier: git and pytest on the agent's repo."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from mlebench_agent_code import agent_env, agent_module, as_agent_user

GIT_ENV = {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "safe.directory", "GIT_CONFIG_VALUE_0": "*"}


def git(work: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """git as the agent's user: the repository's own config (hooks, ``core.fsmonitor``) is the
    agent's, so whatever it makes git run never runs as the verifier."""
    return subprocess.run(
        ["git", *args], cwd=work, env=agent_env(**GIT_ENV),
        capture_output=True, text=True, check=False, **as_agent_user(work),
    )  # fmt: skip


def visible_tests(work: Path, *node_ids: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *node_ids],
        cwd=work, capture_output=True, text=True, timeout=60, check=False,
        env=agent_env(PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=""), **as_agent_user(work),
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
