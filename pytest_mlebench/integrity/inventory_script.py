"""Run inside the sandbox after the agent ended: file times and pre-existing submission copies.

Standard library only (it runs with the sandbox's Python). Argument: one JSON object with
``submission`` (file), ``code`` (folder), ``work`` (an engineering run's workspace, or empty),
``roots`` (folders to search for copies of the submission), ``exclude`` (folders not to search),
``budget`` (seconds). Prints one JSON object.
Only files of exactly the submission's size are hashed, so a search of a whole image is cheap.
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
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
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
    found: list[dict[str, Any]] = []
    looked, complete = 0, True
    for root in roots:
        for here, dirs, files in os.walk(root):
            dirs[:] = [d for d in dirs if os.path.join(here, d) not in exclude]
            if time.time() > deadline:
                return found, looked, False
            for name in files:
                path = os.path.join(here, name)
                try:
                    info = os.lstat(path)
                    if not stat.S_ISREG(info.st_mode) or info.st_size != size:
                        continue
                    looked += 1
                    if sha256(path) == digest:
                        found.append({"path": path, "mtime": info.st_mtime})
                except OSError:
                    continue
    return found, looked, complete


def main() -> None:
    args = json.loads(sys.argv[1])
    out: dict[str, Any] = {"submission": None, "code": code_files(args["code"]), "copies": []}
    if args.get("work"):  # an engineering run: the workspace's times, for its watermark
        out["work"] = code_files(args["work"])
        out["listed_at"] = time.time()  # the run's end, on the clock the file times are on
    submission = args["submission"]
    if os.path.isfile(submission):
        info = os.stat(submission)
        digest = sha256(submission)
        out["submission"] = {"mtime": info.st_mtime, "size": info.st_size, "sha256": digest}
        exclude = set(args["exclude"])
        deadline = time.time() + float(args["budget"])
        found, looked, complete = copies(info.st_size, digest, args["roots"], exclude, deadline)
        out["copies"] = found
        out["search"] = {"roots": args["roots"], "same_size_files": looked, "complete": complete}
    print("MLEBENCH-INVENTORY " + json.dumps(out))


main()
