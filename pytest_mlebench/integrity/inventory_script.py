"""Run inside the sandbox after the agent ended: file times and pre-existing submission copies.

Standard library only (it runs with the sandbox's Python, as ``python3 -I -S -c``: no user
site, no ``site``, no ``PYTHON*`` variables, no script file the agent could replace). Argument:
one JSON object with ``submission`` (file), ``code`` (folder), ``work`` (an engineering run's
workspace, or empty), ``roots`` (folders to search for copies of the submission), ``exclude``
(folders not to search), ``budget`` (seconds), ``max_hash_bytes`` (a larger submission is not
hashed), and optionally ``candidates``: ``{"size": …, "paths": […]}``, the only paths that can
hold a copy of a submission of that size (:mod:`.inventory_index`), checked instead of the walk
when the submission has that size (else the roots are walked as without them). Prints one JSON
object. With ``index`` set instead, it only lists the regular files under the roots (path and
size, the same walk) for :mod:`.inventory_index`.
Only files of exactly the submission's size are hashed, so a search of a whole image is cheap.
Files are opened without following links and without blocking on a FIFO, and only regular
files are read: it runs as a user the agent does not own, over files the agent made.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Iterable, Iterator
from typing import Any

MAX_CODE_FILES = 5000


def sha256(path: str) -> str:
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        digest = hashlib.sha256()
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def code_files(folder: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    for here, _, files in os.walk(folder):
        for name in files:
            path = os.path.join(here, name)
            try:
                info = os.lstat(path)
            except OSError:
                continue
            if stat.S_ISREG(info.st_mode):
                rel = os.path.relpath(path, folder)
                found.append({"path": rel, "mtime": info.st_mtime, "size": info.st_size})
            if len(found) >= MAX_CODE_FILES:
                return found
    return found


def regular_files(
    roots: list[str], exclude: set[str], deadline: float, size: int | None = None
) -> Iterator[tuple[str, os.stat_result] | None]:
    """Regular files under the roots (of exactly ``size`` bytes, when given), top-down (as
    ``os.walk``), never into an excluded folder or through a link; ``None`` last when the
    deadline cut the walk short. The kind of each entry comes from the folder listing itself,
    so links, devices and folders cost no ``stat``; only regular files are ``lstat``-ed."""
    pending = list(reversed(roots))
    while pending:
        if time.time() > deadline:
            yield None
            return
        folder = pending.pop()
        try:
            with os.scandir(folder) as listing:
                entries = list(listing)
        except OSError:
            continue
        below: list[str] = []
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.path not in exclude:
                        below.append(entry.path)
                    continue
                if not entry.is_file(follow_symlinks=False):
                    continue
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if size is None or info.st_size == size:
                yield entry.path, info
        pending.extend(reversed(below))


def listed(paths: list[str], size: int) -> Iterator[tuple[str, os.stat_result]]:
    """The regular files of exactly ``size`` bytes among ``paths`` (links are not followed)."""
    for path in paths:
        try:
            info = os.lstat(path)
        except OSError:
            continue
        if stat.S_ISREG(info.st_mode) and info.st_size == size:
            yield path, info


def copies(
    size: int, digest: str, files: Iterable[tuple[str, os.stat_result] | None]
) -> tuple[list[dict[str, Any]], int, bool]:
    """Those of ``files`` whose content hashes to ``digest``; how many were hashed; whether
    the search was complete (no ``None``: the walk was not cut short)."""
    found: list[dict[str, Any]] = []
    looked = 0
    for item in files:
        if item is None:
            return found, looked, False
        path, info = item
        looked += 1
        try:
            if sha256(path) == digest:
                found.append({"path": path, "mtime": info.st_mtime})
        except OSError:
            continue
    return found, looked, True


def index(args: dict[str, Any]) -> None:
    """Every regular file under the roots, as ``[path, size]`` pairs."""
    deadline = time.time() + float(args["budget"])
    files = []
    for item in regular_files(args["roots"], set(args["exclude"]), deadline):
        if item is None:
            print("MLEBENCH-INVENTORY " + json.dumps({"complete": False}))
            return
        files.append([item[0], item[1].st_size])
    print("MLEBENCH-INVENTORY " + json.dumps({"complete": True, "files": files}))


def main() -> None:
    args = json.loads(sys.argv[1])
    out: dict[str, Any] = {"submission": None, "code": code_files(args["code"]), "copies": []}
    if args.get("work"):  # an engineering run: the workspace's times, for its watermark
        out["work"] = code_files(args["work"])
        out["listed_at"] = time.time()  # the run's end, on the clock the file times are on
    submission = args["submission"]
    try:
        info = os.lstat(submission)
    except OSError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        out["submission_kind"] = "link" if stat.S_ISLNK(info.st_mode) else "special"
    elif info is not None and info.st_size > int(args.get("max_hash_bytes", 1 << 62)):
        out["submission"] = {"mtime": info.st_mtime, "size": info.st_size, "sha256": None}
    elif info is not None:
        try:
            digest = sha256(submission)
        except OSError:
            print("MLEBENCH-INVENTORY " + json.dumps(out))
            return
        out["submission"] = {"mtime": info.st_mtime, "size": info.st_size, "sha256": digest}
        out["copies"], out["search"] = search(args, info.st_size, digest)
    print("MLEBENCH-INVENTORY " + json.dumps(out))


def search(args: dict[str, Any], size: int, digest: str) -> tuple[list[Any], dict[str, Any]]:
    """The copies of the submission and the search's account: the candidates given for its
    size, else the walk of the roots."""
    given = args.get("candidates") or {}
    if given.get("size") == size:
        files: Iterable[tuple[str, os.stat_result] | None] = listed(given["paths"], size)
        how = "candidates"
    else:
        deadline = time.time() + float(args["budget"])
        files = regular_files(args["roots"], set(args["exclude"]), deadline, size)
        how = "walk"
    found, looked, complete = copies(size, digest, files)
    return found, {
        "roots": args["roots"],
        "same_size_files": looked,
        "complete": complete,
        "by": how,
    }


if __name__ == "__main__":
    if json.loads(sys.argv[1]).get("index"):
        index(json.loads(sys.argv[1]))
    else:
        main()
