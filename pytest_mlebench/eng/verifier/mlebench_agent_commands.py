"""The command lines the verifier's door (:mod:`mlebench_agent_run`) starts Python with.

Each keeps the program's interpreter isolated from what the agent could plant: no ``PYTHON*``
variables, no user site, and, for a tool of the verifier's image, no current folder on
``sys.path`` (a workspace folder named like the tool cannot stand in for it). Standard library
only, like its siblings.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path


def python_tool(module: str, *args: str, hash_seeded: bool = False) -> list[str]:
    """``python3 -I -m MODULE ARGS``: the tool of the verifier's image, whatever folder the
    program runs in. ``hash_seeded``: keep ``PYTHONHASHSEED`` from the call's ``env`` (the
    interpreter then reads the door's fresh environment, still without a user site or the
    current folder on ``sys.path``)."""
    return [sys.executable, *_flags(hash_seeded, script=False), "-m", module, *args]


def python_script(script: Path | str, *args: str, hash_seeded: bool = False) -> list[str]:
    """``python3 -E -s SCRIPT ARGS``: one of the agent's scripts, its own folder first on
    ``sys.path`` (it imports its sibling modules), no ``PYTHON*`` and no user site."""
    return [sys.executable, *_flags(hash_seeded, script=True), str(script), *args]


def suite_command(work: Path, *args: str, paths: Sequence[Path] = ()) -> list[str]:
    """The image's pytest over the tests of the agent's repository ``work`` (run it with
    ``cwd=work``). ``python3 -I`` imports the real pytest first, so a workspace folder named
    ``pytest`` cannot stand in for it; only then do ``work`` (and ``paths``, such as installed
    dependencies) go first on ``sys.path``, as ``python3 -m pytest`` from the repository's root
    has it. The repository's ``addopts`` are dropped (``-p its_plugin`` would load a module that
    rewrites outcomes) and no plugin is loaded by entry point."""
    boot = (
        "import sys, pytest; "
        f"sys.path[0:0] = {[str(work), *map(str, paths)]!r}; "
        "sys.exit(pytest.main(sys.argv[1:]))"
    )
    return [sys.executable, "-I", "-c", boot, "-o", "addopts=", "-p", "no:cacheprovider", *args]


def python_code(code: str, *args: str, hash_seeded: bool = False) -> list[str]:
    """``python3 -E -s -c CODE ARGS``: the verifier's own snippet over the agent's modules (the
    program's folder is first on ``sys.path``, as ``-c`` has it)."""
    return [sys.executable, *_flags(hash_seeded, script=True), "-c", code, *args]


def _flags(hash_seeded: bool, *, script: bool) -> list[str]:
    if not hash_seeded:
        return ["-E", "-s"] if script else ["-I"]
    safe_path = [] if script or sys.version_info < (3, 11) else ["-P"]
    return ["-s", *safe_path]
