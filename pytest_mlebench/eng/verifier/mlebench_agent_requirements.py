"""The agent's requirements files, read by the verifier and installed as wheels only.

``pip install -r requirements.txt`` hands the file to pip: its lines may be options (``-e .``,
``--index-url``, ``--find-links ./wheels``, ``-r other.txt``, ``--no-binary``), local paths,
URLs or VCS links, and any of them can make pip build a source tree the agent wrote — its
``setup.py`` or build backend runs wherever pip runs. :func:`read_requirements` reads the file
here instead and accepts only ``NAME[extras] SPECIFIERS ; MARKER`` lines; :func:`pip_install`
gives pip those specifications as arguments, never the file, with ``--only-binary=:all:`` and
``--no-index`` from the verifier's own wheelhouse, and runs it through the door
(:mod:`mlebench_agent_run`) as the agent's user. A refused line is the agent's failure, named.

Standard library only, like its siblings.
"""

from __future__ import annotations

import re
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

from mlebench_agent_run import Finished, agent_scratch, run_agent

SPECIFIER = r"(===|==|~=|!=|<=|>=|<|>)\s*[A-Za-z0-9.*+!_-]+"
REQUIREMENT = re.compile(
    r"^[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?"  # the project's name
    r"(?:\s*\[[A-Za-z0-9._-]+(?:\s*,\s*[A-Za-z0-9._-]+)*\])?"  # extras
    rf"(?:\s*{SPECIFIER}(?:\s*,\s*{SPECIFIER})*)?"  # version specifiers
    r"\s*(?:;\s*[A-Za-z0-9_.'\"<>=!~ ()-]+)?$"  # an environment marker
)
COMMENT = re.compile(r"(^|\s)#.*$")


class RequirementRefused(ValueError):
    """A requirements line the verifier does not hand to pip (the agent's failure)."""


def read_requirements(path: Path) -> list[str]:
    """The requirement specifications of ``path``; :class:`RequirementRefused` names the first
    line that is an option, a path, a URL or a VCS link."""
    specs = []
    for number, raw in enumerate(path.read_text("utf-8", "replace").splitlines(), start=1):
        line = COMMENT.sub("", raw).strip()
        if not line:
            continue
        if not REQUIREMENT.match(line):
            raise RequirementRefused(
                f"{path.name}:{number}: {line[:120]!r} is not NAME[extras]==VERSION (options such"
                " as -e, -r, --index-url or --find-links, paths, URLs and VCS links are refused:"
                " requirements install as wheels only)"
            )
        specs.append(line)
    return specs


def pip_install(
    specs: Sequence[str], wheelhouse: Path, *, target: Path, python: Path | None = None,
    timeout_s: float = 120,
) -> Finished:  # fmt: skip
    """``pip install`` of ``specs`` as wheels from a readable copy of ``wheelhouse`` only: into
    the folder ``target`` (``--target``), or, with ``python``, into that interpreter's
    environment (``--python``; ``target`` is then the environment's folder). It runs as the
    agent's user, ``target`` handed to it: a wheel's ``.pth`` runs only as that user."""
    houses = agent_scratch("wheels-")
    shutil.rmtree(houses)
    shutil.copytree(wheelhouse, houses, symlinks=False)  # the verifier's own wheels, root-only
    houses.chmod(0o755)
    for wheel in houses.rglob("*"):
        wheel.chmod(0o755 if wheel.is_dir() else 0o644)
    into = ["--python", str(python)] if python is not None else ["--target", str(target)]
    command = [
        sys.executable, "-I", "-m", "pip", *into, "install", "--no-index", "--only-binary=:all:",
        "--no-cache-dir", "--disable-pip-version-check", "--find-links", str(houses), "--",
        *specs,
    ]  # fmt: skip
    return run_agent(command, writable=(target,), timeout_s=timeout_s)
