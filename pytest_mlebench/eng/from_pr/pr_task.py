"""``build_task``: from a repository and two refs to a task folder and its summary section.

The steps, all in temporary folders (the user's checkout is only read):
1. resolve ``base`` and ``head``; list the paths the change touched, split into test files and
   code (:func:`~.suite_results.is_test_path`);
2. export head's tree, and a second copy with the oracle patch applied (head's code paths put
   back as base has them: base's code under head's tests);
3. run the suite twice in each (:class:`~.suite_runner.Backend`) and split the tests into
   fail-to-pass and pass-to-pass (:func:`~.pr_split.split_tests`);
4. write the task folder under ``out/<id>`` (built beside it, then moved into place) and this
   task's section of ``out/summary.md``.

Relative paths are the caller's (resolved against the working folder, never against the
repository); ``out`` (default: ``mlebench-tasks`` beside the repository) must lie outside the
repository, which is only read (:func:`task_root`).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from pytest_mlebench.eng.from_pr.pr_repo import FromPrError, Repo, open_repo
from pytest_mlebench.eng.from_pr.pr_split import split_tests
from pytest_mlebench.eng.from_pr.suite_results import is_test_path
from pytest_mlebench.eng.from_pr.suite_runner import Backend
from pytest_mlebench.eng.from_pr.task_files import Change, update_summary, write_task

GUARD = (
    '"""Written by `mlebench eng from-pr`: this folder holds task folders, not tests to run."""\n'
    '\ncollect_ignore_glob = ["*"]\n'
)
TASK_ID = re.compile(r"^[a-z0-9][a-z0-9-]{0,62}$")
DEFAULT_OUT = "mlebench-tasks"  # beside the repository: ../mlebench-tasks


@dataclass(frozen=True)
class Request:
    repo: Path
    base: str
    head: str
    out: Path | None  # None: DEFAULT_OUT beside the repository
    task_id: str | None = None
    backend: Backend = field(default_factory=Backend)


@dataclass(frozen=True)
class Built:
    folder: Path
    change: Change
    summary: Path


def build_task(request: Request) -> Built:
    repo = open_repo(request.repo.resolve())
    out = task_root(request.out, repo.root)
    base, head = repo.resolve(request.base), repo.resolve(request.head)
    if base == head:
        raise FromPrError(f"--base {request.base} and --head {request.head} are the same commit")
    task_id = request.task_id or f"pr-{head[:10]}"
    if not TASK_ID.match(task_id):
        raise FromPrError(f"task id {task_id!r}: use lower-case letters, digits and dashes (--id)")
    request.backend.check()
    changed = repo.changed(base, head)
    code_paths = [path for path in changed if not is_test_path(path)]
    fix = repo.patch(head, base, code_paths)
    with tempfile.TemporaryDirectory(prefix="mle-from-pr-") as scratch:
        head_tree, base_tree = Path(scratch) / "head", Path(scratch) / "base"
        repo.export(head, head_tree)
        repo.export(head, base_tree)
        apply_patch(base_tree, fix)
        started = time.monotonic()
        at_base = request.backend.run(base_tree)
        at_head = request.backend.run(head_tree)
        suite_wall_s = (time.monotonic() - started) / 4
    if not at_base.outcomes:
        raise FromPrError(
            f"no tests found: `python -m pytest` from the root of {base[:12]} collected nothing "
            f"(check the test file names and pytest's testpaths); its output:\n{at_base.log}"
        )
    split = split_tests(at_base, at_head)
    if not split.fail_to_pass:
        raise FromPrError(
            f"no fail-to-pass test: no test passes at {request.base} and fails at "
            f"{request.head}, so there is nothing to fix (a task needs a change that breaks a "
            "test; pick the commit that broke it as --head)"
        )
    change = Change(
        task_id=task_id, repo=origin(repo), base=base, head=head,
        base_subject=subject(repo, base), head_subject=subject(repo, head),
        code_paths=tuple(code_paths), split=split, backend=request.backend.kind,
        suite_wall_s=suite_wall_s,
    )  # fmt: skip
    folder = place(out, task_id, repo, head, change, repo.patch(head, base, changed), fix,
                   request.backend.wheelhouse)  # fmt: skip
    return Built(folder, change, update_summary(out, change))


def task_root(out: Path | None, repo_root: Path) -> Path:
    """The absolute folder the task goes to: ``out`` as the caller meant it (relative to the
    working folder), by default ``mlebench-tasks`` beside the repository; :class:`FromPrError`
    when it lies inside the repository (head's tree and the hidden verifier would land in the
    very repository the task is made from)."""
    root = repo_root.resolve()
    target = (out if out is not None else root.parent / DEFAULT_OUT).resolve()
    if target == root or root in target.parents:
        raise FromPrError(
            f"--out {out} lies inside the repository {root}: the task folder holds head's tree "
            "and the hidden tests, so it goes outside the repository it is made from (leave "
            f"--out out for {root.parent / DEFAULT_OUT}, or pass a folder outside the repository)"
        )
    return target


def place(out: Path, task_id: str, repo: Repo, head: str, change: Change, to_base: str,
          fix: str, wheelhouse: Path | None) -> Path:  # fmt: skip
    """Build ``out/<id>`` beside its final place, then swap it in."""
    out.mkdir(parents=True, exist_ok=True)
    guard = out / "conftest.py"
    if not guard.exists():  # the repository's own pytest must not collect the task folders
        guard.write_text(GUARD)
    staging, final = out / f".{task_id}.partial", out / task_id
    shutil.rmtree(staging, ignore_errors=True)
    repo.export(head, staging / "workspace")
    write_task(staging, change, to_base, fix)
    if wheelhouse is not None:  # the verifier installs the same dependencies, offline
        shutil.copytree(wheelhouse, staging / "verify" / "wheelhouse")
    shutil.rmtree(final, ignore_errors=True)
    os.replace(staging, final)
    return final


def apply_patch(tree: Path, patch: str) -> None:
    """Apply ``patch`` to the plain folder ``tree`` (no repository above it is consulted)."""
    if not patch:
        return
    done = subprocess.run(
        ["git", "apply", "--whitespace=nowarn", "-"], cwd=tree, input=patch, text=True,
        capture_output=True, env={**os.environ, "GIT_CEILING_DIRECTORIES": str(tree.parent)},
    )  # fmt: skip
    if done.returncode != 0:
        raise FromPrError(f"the oracle patch does not apply to head's tree: {done.stderr.strip()}")


def subject(repo: Repo, commit: str) -> str:
    return repo.git("log", "-1", "--format=%s", commit).strip()


def origin(repo: Repo) -> str:
    """The ``origin`` remote's address with any user name or token removed, else the folder."""
    try:
        url = repo.git("config", "--get", "remote.origin.url").strip()
    except FromPrError:
        return str(repo.root)
    parts = urlsplit(url)
    if parts.scheme and parts.hostname:
        netloc = parts.hostname + (f":{parts.port}" if parts.port else "")
        return urlunsplit(parts._replace(netloc=netloc))
    return url.split("@", 1)[-1] if "@" in url.split(":", 1)[0] else url
