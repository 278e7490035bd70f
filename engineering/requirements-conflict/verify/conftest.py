"""Installs the agent's requirements.txt into a fresh venv from the PRIVATE wheelhouse, once.

The venv is made with ``--without-pip`` and filled by the image's own pip (``pip --python``),
which is fast and needs nothing from the network; where the image has no pip module, the venv
gets its own through ensurepip. Wheels only (``--only-binary :all:``): no build script of a
source archive the agent might point pip at runs here.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

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
    venv = Path(tempfile.mkdtemp(prefix="venv-")) / "v"
    has_pip = (
        subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode
        == 0
    )
    subprocess.run(
        [sys.executable, "-m", "venv", *(["--without-pip"] if has_pip else []), str(venv)],
        check=True,
    )
    python = venv / "bin" / "python"
    pip = (
        [sys.executable, "-m", "pip", "--python", str(python)]
        if has_pip
        else [str(python), "-m", "pip"]
    )
    done = subprocess.run(
        [*pip, "install", "--no-index", "--only-binary", ":all:", "--no-cache-dir",
         "--disable-pip-version-check", "--find-links", str(wheelhouse), "-r", "requirements.txt"],
        cwd=work, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    return Install(python, pip, done.returncode, (done.stdout + done.stderr)[-1500:])
