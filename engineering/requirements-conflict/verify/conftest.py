"""Installs the agent's requirements.txt into a fresh venv from the PRIVATE wheelhouse, once.

The venv is made with ``--without-pip`` and filled by the image's own pip (``pip --python``),
which is fast and needs nothing from the network. The file is read by the verifier
(``mlebench_agent_requirements``): only ``NAME==VERSION``-style lines reach pip, as arguments,
wheels only (``--only-binary=:all:``), and pip runs as the agent's user: no build script of a
source archive, no option and no local path the agent might write into the file reaches pip.
"""

from __future__ import annotations

import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from mlebench_agent_requirements import RequirementRefused, pip_install, read_requirements
from mlebench_agent_run import agent_scratch, python_tool, run_agent

PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==([A-Za-z0-9.]+)$")


@dataclass
class Install:
    python: Path
    pip: list[str]
    returncode: int
    output: str


def normalize(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def requirement_lines(path: Path) -> list[str]:
    """Non-blank lines with comments removed (pip's own rule: `#` after whitespace or at start)."""
    lines = []
    for raw in path.read_text("utf-8").splitlines():
        line = re.sub(r"(^|\s)#.*$", "", raw).strip()
        if line:
            lines.append(line)
    return lines


def env_path(name: str) -> Path:
    return Path(os.environ[name])


@pytest.fixture(scope="session")
def expected() -> dict:
    return json.loads((env_path("PRIVATE_DIR") / "expected.json").read_text("utf-8"))


@pytest.fixture(scope="session")
def install() -> Install:
    work, wheelhouse = env_path("WORK_DIR"), env_path("PRIVATE_DIR") / "wheelhouse"
    venv = agent_scratch("venv-") / "v"
    python = venv / "bin" / "python"
    pip = [sys.executable, "-I", "-m", "pip", "--python", str(python)]
    made = run_agent(python_tool("venv", "--without-pip", str(venv)), writable=(venv.parent,))
    if not made.ok:
        return Install(python, pip, 1, f"the venv was not made: {made.output[-500:]}")
    try:
        specs = read_requirements(work / "requirements.txt")
    except (RequirementRefused, OSError) as refused:
        return Install(python, pip, 1, str(refused))
    done = pip_install(specs, wheelhouse, target=venv, python=python)
    return Install(python, pip, done.returncode, done.output[-1500:])
