"""After the run, inside the sandbox: file times and copies of the submission that predate it.

:func:`take_inventory` runs :mod:`.inventory_script` with the sandbox's Python as the harness
(:meth:`~pytest_mlebench.sandbox.interface.Sandbox.exec_harness`: Docker runs it as root with a
clean environment; the source is passed with ``-c`` under ``-I -S``, so no file or variable the
agent left can change what it reports), after the agent's processes are gone. What it finds:

- the submission's and CODE_DIR's modification times, for the watermark's time window;
- files of exactly the submission's size whose content equals it, in the agent folder (every
  backend) and in the whole image (Docker: ``/`` without the kernel's and the contract's
  folders). A copy last modified before the sandbox started was pre-made. Hashing only files of
  the submission's exact byte size keeps the search cheap: one ``stat`` per file. In a Docker
  sandbox whose overlay the harness reads, :func:`index_image` lists the image's files once
  before the first agent of that image starts, and the search after each run checks only the
  image's and the run's files of that size (:mod:`.inventory_index` says when that is exact and
  when the script walks the image as before).

:func:`files_outside_contract` lists the files that changed in the container outside the
contract's folders (the container's overlay layer, or the engine's ``docker diff``:
:mod:`pytest_mlebench.sandbox.docker.changes`); :func:`contract_paths` says which folders those
are for a competition run and for an engineering run.
"""

from __future__ import annotations

import json
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.integrity.inventory_index import (
    candidates,
    has_index,
    overlay_of,
    remember_index,
)
from pytest_mlebench.sandbox.bounded_read import read_tail
from pytest_mlebench.sandbox.docker.expiry import LEASE_FILE
from pytest_mlebench.sandbox.interface import ContractPaths, Sandbox

SCRIPT = Path(__file__).with_name("inventory_script.py")
BUDGET_SECONDS = 30
MARKER = "MLEBENCH-INVENTORY "
DOCKER_EXCLUDE = ("/proc", "/sys", "/dev", "/run", "/home/data", "/home/submission")
# Scratch folders and the harness's own (the validator's socket): writable in every run.
SCRATCH = ("/tmp", "/var/tmp", "/run/mlebench")
TOOL_CACHE = re.compile(r"/(root|home/[^/]+)/\.cache(/|$)")
MAX_ANSWER_BYTES = 8 * 1024**2  # of the inventory's output read back, from its end
MAX_INDEX_BYTES = 48 * 1024**2  # of an image's index (under the exec log's 50 MB cap)
MAX_HASH_BYTES = 1024**3
# The init the engine adds (init=True) and the files of the lease keeper (docker.expiry).
ENGINE_FILES = frozenset(
    {"/usr/sbin/docker-init", *(LEASE_FILE + end for end in ("", ".pid", ".taken", ".tmp"))}
)


def search_roots(sandbox: Sandbox) -> tuple[list[str], list[str]]:
    """Where to look for pre-made copies, and what to leave out."""
    paths = sandbox.paths
    if sandbox.backend == "docker":
        return ["/"], [*DOCKER_EXCLUDE, paths.data, paths.submission]
    return [paths.agent], [paths.data, paths.submission]


def index_image(sandbox: Sandbox) -> bool:
    """Before the agent starts: list the regular files of the sandbox's image, once per image
    (kept on the host for later sessions), so that the inventory after the run checks only the
    files that can be copies (:mod:`.inventory_index`); True when an index for the image is
    there now. Nothing is listed where the shortcut cannot hold (another backend, no overlay
    view)."""
    roots, exclude = search_roots(sandbox)
    overlay = overlay_of(sandbox, exclude)
    if overlay is None:
        return False
    if has_index(overlay):
        return True
    # Within half the run's time limit: the sandbox's first lease covers that already, so this
    # exec never makes the container outlive the agent's deadline plus the grace.
    timeout = min(BUDGET_SECONDS + 30.0, sandbox.spec.limits.time_limit / 2)
    budget = max(0.5, min(float(BUDGET_SECONDS), timeout - 2.0))  # it ends itself, incomplete
    args = {"index": True, "roots": roots, "exclude": exclude, "budget": budget}
    answer = run_script(sandbox, args, MAX_INDEX_BYTES, timeout=timeout)
    return remember_index(overlay, answer)


def take_inventory(
    sandbox: Sandbox, run_dir: Path, max_hash_bytes: int = MAX_HASH_BYTES
) -> dict[str, Any]:
    """Run the inventory in ``sandbox`` as the harness (:meth:`Sandbox.exec_harness`); its
    JSON answer, or ``{"error": …}``. A submission over ``max_hash_bytes`` is not hashed."""
    paths = sandbox.paths
    roots, exclude = search_roots(sandbox)
    overlay = overlay_of(sandbox, exclude)
    args = {
        "submission": paths.submission_file,
        "code": paths.code,
        "work": paths.work if sandbox.spec.workspace else "",
        "roots": roots,
        "exclude": exclude,
        "budget": BUDGET_SECONDS,
        "max_hash_bytes": max_hash_bytes,
        "candidates": candidates(overlay, paths.submission_file, exclude) if overlay else None,
    }
    return run_script(sandbox, args, MAX_ANSWER_BYTES)


def run_script(
    sandbox: Sandbox, args: dict[str, Any], max_bytes: int, timeout: float = BUDGET_SECONDS + 30
) -> dict[str, Any]:
    """:data:`SCRIPT` with ``args`` as the harness, killed past ``timeout`` seconds; its JSON
    answer (read back from at most the last ``max_bytes`` of its output), or ``{"error": …}``."""
    # Passed with -c, never as a file the agent could replace; -I -S: no user site, no site,
    # no PYTHON* variables, so nothing the agent left on the interpreter's paths runs in it;
    # -B: no bytecode written (the file-system diff stays the agent's).
    command = [sandbox.python, "-I", "-S", "-B", "-c", SCRIPT.read_text("utf-8"), json.dumps(args)]
    with tempfile.TemporaryDirectory(prefix="mlebench-inventory-") as tmp:
        log = Path(tmp) / "inventory.log"
        result = sandbox.exec_harness(command, timeout=timeout, log_path=log)
        try:
            text = read_tail(log, max_bytes).decode("utf-8", errors="replace")
        except OSError:
            text = result.output_tail
    for line in reversed(text.splitlines()):
        if line.startswith(MARKER):
            try:
                found = json.loads(line[len(MARKER) :])
            except ValueError:
                break
            if isinstance(found, dict):
                return found
            break
    return {"error": f"the inventory script said nothing (exit {result.exit_code}): {text[-300:]}"}


def files_outside_contract(sandbox: Sandbox, limit: int = 50) -> dict[str, Any] | None:
    """Files added or changed outside the contract folders (Docker only; ``None`` elsewhere)."""
    container = getattr(sandbox, "container", None)
    if sandbox.backend != "docker" or container is None:
        return None
    from pytest_mlebench.sandbox.docker.changes import container_changes

    contract = contract_paths(sandbox.paths, workspace=sandbox.spec.workspace)
    return outside_contract(container_changes(container), contract, limit)


def outside_contract(
    changes: list[dict[str, Any]], contract: Contract, limit: int = 50
) -> dict[str, Any]:
    """The added or changed files of a file-system diff (the engine's ``Path``/``Kind`` entries)
    outside ``contract``. Left out: deletions, a folder changed only because something below it
    changed, the engine's own files, a user's tool cache (``~/.cache``: pip's, torch's)."""
    paths = [c["Path"] for c in changes]
    outside = sorted(
        c["Path"]
        for c in changes
        if c.get("Kind") in (0, 1)
        and c["Path"] not in ENGINE_FILES
        and not contract.holds(c["Path"])
        and TOOL_CACHE.match(c["Path"]) is None
        and not (c.get("Kind") == 0 and _is_parent(c["Path"], paths))
    )
    return {"count": len(outside), "paths": outside[:limit]}


@dataclass(frozen=True)
class Contract:
    """Where a run may write: whole folder trees, and single paths the harness itself made."""

    trees: tuple[str, ...]
    exact: frozenset[str] = frozenset()

    def holds(self, path: str) -> bool:
        return path in self.exact or any(
            path == tree or path.startswith(tree + "/") for tree in self.trees
        )


def contract_paths(paths: ContractPaths, *, workspace: bool) -> Contract:
    """A competition run may write anywhere under ``/home`` and in the scratch folders. An
    engineering run (``workspace``: its sandbox has a ``WORK_DIR``; every Docker sandbox names
    the path) only in its workspace, its logs and the scratch folders; the agent folder, the
    instructions are the harness's, and the contract's empty folders
    are made by it. Anything else it writes (into ``/home/code``, the home's dotfiles, ``/etc``)
    is outside."""
    if not workspace:
        return Contract(("/home", *SCRATCH))
    made = (paths.home, paths.data, paths.submission, paths.code, paths.instructions)
    return Contract((paths.work, paths.logs, paths.agent, *SCRATCH), frozenset(made))


def _is_parent(path: str, paths: list[str]) -> bool:
    """A folder reported as changed only because something below it changed."""
    prefix = path.rstrip("/") + "/"
    return any(other.startswith(prefix) for other in paths)
