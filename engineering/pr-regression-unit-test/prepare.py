"""Per-seed git history of pr-regression-unit-test: four commits, the last ("PR #42") broke a test.

``prepare`` turns the workspace into a git repository with a fixed history: the module as it was
before the pull request (``GOOD_MODULE``), its tests, a docs commit, then PR #42, which rewrote
``merge``'s loop (touching intervals no longer join, a nested interval now truncates the one that
contains it) and added ``total_length``. Authors and dates are fixed (shifted by the seed, all in
2024), there is no remote and no tag, and the reflog is expired. The seed also picks the numbers of
the visible failing test. ``private/commits.json`` records every original commit.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

GOOD_MODULE = '''"""Closed integer intervals: merge overlapping or touching ones."""


def merge(intervals):
    """Sorted, disjoint intervals covering the same integer points.

    Intervals are ``(start, end)`` pairs with ``start <= end``, both ends included. Overlapping
    intervals and touching ones (``(1, 2)`` and ``(3, 4)``: no integer between them) are joined.
    """
    result = []
    for start, end in sorted(intervals):
        if start > end:
            raise ValueError(f"interval ({start}, {end}) ends before it starts")
        if result and start <= result[-1][1] + 1:
            result[-1][1] = max(result[-1][1], end)
        else:
            result.append([start, end])
    return [tuple(pair) for pair in result]
'''
FIRST_README = (
    "# intervals\n\n`merge(intervals)` joins overlapping and touching closed integer intervals.\n"
)
AUTHORS = [
    ("Mara Lindqvist", "mara.lindqvist@example.invalid"),
    ("Jon Okafor", "jon.okafor@example.invalid"),
]


def _git(repo: Path, *args: str, when: str = "", author: int = 0) -> str:
    name, email = AUTHORS[author]
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email,
        "GIT_COMMITTER_NAME": name, "GIT_COMMITTER_EMAIL": email,
        "GIT_AUTHOR_DATE": when, "GIT_COMMITTER_DATE": when,
        "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1",
    }  # fmt: skip
    done = subprocess.run(
        ["git", *args], cwd=repo, env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def _commit(repo: Path, message: str, when: str, author: int = 0) -> str:
    _git(repo, "add", "-A", when=when, author=author)
    _git(repo, "commit", "-q", "--no-gpg-sign", "-m", message, when=when, author=author)
    return _git(repo, "rev-parse", "HEAD", when=when)


def prepare(workspace: Path, private: Path, seed: int) -> dict[str, str]:
    a = 2 + seed % 7
    numbers = {"{A}": a, "{B}": a + 3, "{C}": a + 4, "{D}": a + 9}
    tests_path = workspace / "tests" / "test_intervals.py"
    tests = tests_path.read_text("utf-8")
    for key, value in numbers.items():
        tests = tests.replace(key, str(value))
    head = {
        "intervals.py": (workspace / "intervals.py").read_text("utf-8"),
        "README.md": (workspace / "README.md").read_text("utf-8"),
    }
    first_tests = tests.split("\n\ndef test_total_length")[0].replace(", total_length", "") + "\n"
    day = 4 + seed % 5
    dates = [f"2024-03-{day + offset:02d}T{hour}:00:00+01:00" for offset, hour in
             [(0, 10), (1, 14), (6, 9), (13, 16)]]  # fmt: skip
    subprocess.run(["git", "init", "-q", str(workspace)], check=True,
                   env={**os.environ, "GIT_CONFIG_GLOBAL": os.devnull,
                        "GIT_CONFIG_NOSYSTEM": "1"})  # fmt: skip
    _git(workspace, "symbolic-ref", "HEAD", "refs/heads/main")
    (workspace / ".gitignore").write_text("__pycache__/\n.pytest_cache/\n.hypothesis/\n", "utf-8")
    (workspace / "intervals.py").write_text(GOOD_MODULE, "utf-8")
    (workspace / "README.md").write_text(FIRST_README, "utf-8")
    tests_path.unlink()
    commits = [_commit(workspace, "intervals: merge overlapping and touching intervals", dates[0])]
    tests_path.write_text(first_tests, "utf-8")
    commits.append(_commit(workspace, "tests: merge cases", dates[1]))
    (workspace / "README.md").write_text(
        FIRST_README + "\nRun the tests with `python3 -m pytest -q`.\n", "utf-8"
    )
    commits.append(_commit(workspace, "docs: how to run the tests", dates[2]))
    for name, text in head.items():
        (workspace / name).write_text(text, "utf-8")
    tests_path.write_text(tests, "utf-8")
    message = (
        "PR #42: simplify merge's loop, add total_length()\n\n"
        "Merged pull request #42 from jon/total-length."
    )
    commits.append(_commit(workspace, message, dates[3], author=1))
    _git(workspace, "reflog", "expire", "--expire=now", "--all")
    _git(workspace, "gc", "-q", "--prune=now")
    facts = {
        "commits": commits,
        "head": commits[-1],
        "failing_test": "tests/test_intervals.py::test_merge_touching",
    }
    (private / "commits.json").write_text(json.dumps(facts, indent=2), "utf-8")
    return {}
