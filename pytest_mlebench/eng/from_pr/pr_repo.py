"""Read the user's repository without touching it: resolve refs, export trees, diff them.

Every command reads the object database only. A tree is checked out into a fresh folder through a
temporary index file (``read-tree`` + ``checkout-index``), so the user's working tree, index,
branches and worktree list stay as they were. Submodules are not exported (their files are in
another repository).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from pytest_mlebench.errors import MLEBenchError


class FromPrError(MLEBenchError):
    """A task cannot be built from this repository and these refs; the message says why."""


@dataclass(frozen=True)
class Repo:
    root: Path

    def git(self, *args: str, env: dict[str, str] | None = None) -> str:
        done = subprocess.run(
            ["git", "-C", str(self.root), *args],
            capture_output=True,
            text=True,
            env={**os.environ, **(env or {})},
        )
        if done.returncode != 0:
            raise FromPrError(f"git {' '.join(args)} failed: {done.stderr.strip()}")
        return done.stdout

    def resolve(self, ref: str) -> str:
        """The commit id ``ref`` names; a clear error for a ref this repository lacks."""
        done = subprocess.run(
            ["git", "-C", str(self.root), "rev-parse", "--verify", "--quiet", f"{ref}^{{commit}}"],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0 or not done.stdout.strip():
            raise FromPrError(
                f"unknown ref {ref!r} in {self.root}: check the spelling, or fetch it first "
                f"(`git fetch origin {ref}`; CI checkouts are often shallow: `fetch-depth: 0`)"
            )
        return done.stdout.strip()

    def export(self, commit: str, target: Path) -> None:
        """Write the files of ``commit``'s tree into ``target`` (created; a relative ``target`` is
        the caller's, never taken relative to the repository as git's ``--prefix`` would)."""
        target = target.resolve()
        target.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="mle-from-pr-index-") as scratch:
            env = {"GIT_INDEX_FILE": str(Path(scratch) / "index")}
            self.git("read-tree", commit, env=env)
            self.git("checkout-index", "--all", f"--prefix={target}{os.sep}", env=env)

    def changed(self, base: str, head: str) -> list[str]:
        """Paths whose content differs between the two commits (renames as delete + add)."""
        out = self.git("diff", "--no-renames", "--name-only", "-z", base, head)
        return sorted(path for path in out.split("\0") if path)

    def patch(self, old: str, new: str, paths: list[str]) -> str:
        """A binary-safe patch turning ``old``'s version of ``paths`` into ``new``'s."""
        if not paths:
            return ""
        options = ("--binary", "--no-renames", "--full-index")
        return self.git("--literal-pathspecs", "diff", *options, old, new, "--", *paths)


def open_repo(directory: Path) -> Repo:
    """The repository holding ``directory``; a clear error when git or the repository is missing."""
    if shutil.which("git") is None:
        raise FromPrError("git is not installed: install it (apt-get install git) and retry")
    if not directory.is_dir():
        raise FromPrError(f"{directory} is not a folder: pass the repository with --repo DIR")
    done = subprocess.run(
        ["git", "-C", str(directory), "rev-parse", "--show-toplevel"],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        raise FromPrError(
            f"{directory} is not a git repository: run the command inside one, or pass --repo DIR"
        )
    return Repo(Path(done.stdout.strip()))
