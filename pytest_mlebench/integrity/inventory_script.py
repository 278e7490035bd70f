"""Run inside the sandbox after the agent ended: file times and pre-existing submission copies.

Standard library only (it runs with the sandbox's Python, as ``python3 -I -S -c``: no user
site, no ``site``, no ``PYTHON*`` variables, no script file the agent could replace). Argument:
one JSON object with ``submission`` (file), ``code`` (folder), ``work`` (an engineering run's
workspace, or empty), ``roots`` (folders to search for copies of the submission), ``exclude``
(folders not to search), ``budget`` (seconds), ``max_hash_bytes`` (a larger submission is not
hashed). Prints one JSON object.
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


def copies(
    size: int, digest: str, roots: list[str], exclude: set[str], deadline: float
) -> tuple[list[dict[str, Any]], int, bool]:
    """Regular files of exactly ``size`` bytes whose content hashes to ``digest``, under the
    roots, top-down (as ``os.walk``), never into an excluded folder or through a link. The
    kind of each entry comes from the folder listing itself, so links, devices and folders cost
    no ``stat``; only regular files are ``lstat``-ed for their size."""
    found: list[dict[str, Any]] = []
    looked = 0
    pending = list(reversed(roots))
    while pending:
        if time.time() > deadline:
            return found, looked, False
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
                if info.st_size != size:
                    continue
                looked += 1
                if sha256(entry.path) == digest:
                    found.append({"path": entry.path, "mtime": info.st_mtime})
            except OSError:
                continue
        pending.extend(reversed(below))
    return found, looked, True


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
        exclude = set(args["exclude"])
        deadline = time.time() + float(args["budget"])
        found, looked, complete = copies(info.st_size, digest, args["roots"], exclude, deadline)
        out["copies"] = found
        out["search"] = {"roots": args["roots"], "same_size_files": looked, "complete": complete}
    print("MLEBENCH-INVENTORY " + json.dumps(out))


main()
