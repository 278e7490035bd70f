"""A small generated git repository for the from-pr tests: a package, five tests, a breaking change.

``base`` passes all five tests; ``head`` breaks ``sub`` and ``mul`` (two tests fail) while
``add``, ``div`` and ``neg`` keep passing; a later commit on ``main`` is the real fix (a "future"
commit the task must not reveal). The repository also has a tag and a remote with credentials in
its address, which the task must carry neither of.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

GOOD = """def add(a, b):
    return a + b


def sub(a, b):
    return a - b


def mul(a, b):
    return a * b


def div(a, b):
    return a / b


def neg(a):
    return -a
"""
TESTS = """from calc.ops import add, div, mul, neg, sub


def test_add():
    assert add(2, 3) == 5


def test_sub():
    assert sub(5, 3) == 2


def test_mul():
    assert mul(4, 3) == 12


def test_div():
    assert div(6, 3) == 2


def test_neg():
    assert neg(4) == -4
"""
ENV = {
    "GIT_AUTHOR_NAME": "Dev",
    "GIT_AUTHOR_EMAIL": "dev@example.com",
    "GIT_COMMITTER_NAME": "Dev",
    "GIT_COMMITTER_EMAIL": "dev@example.com",
    "GIT_CONFIG_GLOBAL": os.devnull,
    "GIT_CONFIG_NOSYSTEM": "1",
}


@dataclass(frozen=True)
class PrRepo:
    root: Path
    base: str
    head: str
    future: str
    docs_only: str  # a commit after base that touches no code (nothing to fix)


def git(root: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", *args],
        cwd=root,
        env={**os.environ, **ENV},
        check=True,
        capture_output=True,
        text=True,
    )
    return done.stdout.strip()


def commit(root: Path, files: dict[str, str], message: str) -> str:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)
    return git(root, "rev-parse", "HEAD")


def make_pr_repo(root: Path, extra: dict[str, str] | None = None) -> PrRepo:
    """The repository; ``extra`` files join the base commit (a dependency and its test)."""
    root.mkdir(parents=True)
    git(root, "init", "-q", "--initial-branch=main")
    base = commit(
        root,
        {
            "calc/__init__.py": "",
            "calc/ops.py": GOOD,
            "tests/test_ops.py": TESTS,
            "README.md": "calc\n",
            ".gitignore": "*.pyc\n",
            **(extra or {}),
        },
        "calc with tests",
    )
    git(root, "tag", "v1")
    broken = GOOD.replace("return a - b", "return a + b").replace("return a * b", "return a ** b")
    head = commit(root, {"calc/ops.py": broken, "README.md": "calc, faster\n"}, "speed up ops")
    future = commit(root, {"calc/ops.py": GOOD}, "fix sub and mul again")
    git(root, "checkout", "-q", "-b", "docs", base)
    docs_only = commit(root, {"README.md": "calc: four operations\n"}, "docs only")
    git(root, "checkout", "-q", "main")
    git(root, "remote", "add", "origin", "https://dev:s3cret-token@git.example.com/dev/calc.git")
    return PrRepo(root, base, head, future, docs_only)
