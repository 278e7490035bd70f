"""The ``prepare.py`` of a task made by ``mlebench eng from-pr`` (copied there; stdlib only).

The task's ``workspace/`` holds head's files without history. ``prepare`` turns the harness's copy
into a fresh git repository of exactly two commits: base's tree ("base", rebuilt by applying
``history/to-base.patch`` beside this file), then head's tree ("the change under review"). Author,
committer and dates are fixed, so the commit ids are the same for every seed; there is no remote,
no tag, no reflog and no object of the original repository beyond those two trees.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

TO_BASE = Path(__file__).resolve().with_name("history") / "to-base.patch"
IDENTITY = {
    "GIT_AUTHOR_NAME": "mlebench",
    "GIT_AUTHOR_EMAIL": "mlebench@localhost",
    "GIT_AUTHOR_DATE": "2000-01-01T00:00:00+0000",
    "GIT_COMMITTER_NAME": "mlebench",
    "GIT_COMMITTER_EMAIL": "mlebench@localhost",
    "GIT_COMMITTER_DATE": "2000-01-01T00:00:00+0000",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


def _git(workspace: Path, *args: str) -> None:
    subprocess.run(["git", "-c", "core.hooksPath=/dev/null", "-c", "commit.gpgsign=false", *args],
                   cwd=workspace, env={**os.environ, **IDENTITY}, check=True,
                   capture_output=True)  # fmt: skip


def _commit(workspace: Path, message: str) -> None:
    _git(workspace, "add", "--all", "--force", ".")
    _git(workspace, "commit", "--quiet", "--allow-empty", "--no-verify", "-m", message)


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    """Rebuild the history in ``workspace`` (head's files); nothing private, no extra env."""
    _git(workspace, "init", "--quiet", "--initial-branch=main")
    has_change = TO_BASE.stat().st_size > 0
    if has_change:
        _git(workspace, "apply", "--whitespace=nowarn", str(TO_BASE))
    _commit(workspace, "base")
    if has_change:
        _git(workspace, "apply", "--whitespace=nowarn", "--reverse", str(TO_BASE))
    _commit(workspace, "the change under review")
    _git(workspace, "reflog", "expire", "--expire=now", "--all")
    _git(workspace, "gc", "--quiet", "--prune=now")
    return {}
