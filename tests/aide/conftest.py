"""Fixtures of the AIDE tests: AIDE installed from its lock for the local backend, and a FAKE
upstream answering AIDE's prompts with the scripted titanic solution.

The local backend runs ``python3`` from the folder of ``MLEBENCH_LOCAL_PYTHON`` (default: the
harness's own), so ``aide_on_path`` names a ``python3`` that is this interpreter with AIDE's
locked packages (installed once per lock into the user cache, from wheels the host's pip
downloads) in front of its own.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from filelock import FileLock

from pytest_mlebench.agents.aide_folder import AIDE_FOLDER
from tests.aide.scripted_aide import answer_aide
from tests.gateway.conftest import PROVIDER_KEY
from tests.gateway.fake_upstream import FakeUpstream

LOCK = AIDE_FOLDER / "requirements.lock"
PLATFORM = [
    "--only-binary=:all:",
    "--python-version",
    "3.11",
    "--implementation",
    "cp",
    "--abi",
    "cp311",
    "--platform",
    "manylinux_2_28_x86_64",
    "--platform",
    "manylinux2014_x86_64",
    "--platform",
    "any",
]


def _pip(*args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "-q", *args], capture_output=True, text=True, timeout=900
    )
    if done.returncode != 0:
        pytest.fail(f"pip {' '.join(args[:2])} failed:\n{done.stderr[-3000:]}")


@pytest.fixture(scope="session")
def aide_site() -> Path:
    """A folder holding AIDE's locked packages (aideml and what it imports), built once per lock
    (xdist workers wait for each other on a file lock)."""
    return locked_site(LOCK, "aide-test", "aide")


def locked_site(lock: Path, cache_name: str, package: str) -> Path:
    """A folder holding the packages of ``lock`` (which provides ``package``), built once per lock
    under the user cache's ``cache_name`` (xdist workers wait for each other on a file lock)."""
    if sys.version_info[:2] != (3, 11):
        pytest.skip(f"{lock.name} pins wheels for CPython 3.11 (the image's), not {sys.version}")
    digest = hashlib.sha256(lock.read_bytes()).hexdigest()[:16]
    root = Path.home() / ".cache" / "pytest-mlebench" / cache_name / digest
    root.mkdir(parents=True, exist_ok=True)
    with FileLock(str(root / "build.lock")):
        return _built_site(root, lock, package)


def _built_site(root: Path, lock: Path, package: str) -> Path:
    site = root / "site"
    if (site / package).is_dir():
        return site
    wheels, building = root / "wheelhouse", root / "site.partial"
    shutil.rmtree(building, ignore_errors=True)
    _pip("download", "--no-deps", "--require-hashes", *PLATFORM, "-d", str(wheels), "-r", str(lock))
    _pip(
        "install",
        "--no-deps",
        "--no-index",
        "--find-links",
        str(wheels),
        "--require-hashes",
        "--target",
        str(building),
        "-r",
        str(lock),
    )
    building.rename(site)
    return site


def python_with(site: Path, bin_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A ``python3`` that runs this interpreter with ``site`` importable, first on PATH and
    named as the local backend's agent interpreter (``MLEBENCH_LOCAL_PYTHON``)."""
    bin_dir.mkdir()
    shim = bin_dir / "python3"
    shim.write_text(f'#!/bin/sh\nPYTHONPATH="{site}" exec "{sys.executable}" "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    # the local backend puts this interpreter's folder first on the agent's PATH
    monkeypatch.setenv("MLEBENCH_LOCAL_PYTHON", str(shim))
    return shim


@pytest.fixture
def aide_on_path(aide_site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``python3`` on PATH runs this interpreter with AIDE's packages importable."""
    return python_with(aide_site, tmp_path / "aide-bin", monkeypatch)


@pytest.fixture
def fake_aide_upstream(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeUpstream]:
    """The FAKE OpenAI upstream, scripted for AIDE, behind the run's gateway (key on the host)."""
    with FakeUpstream(chat=answer_aide) as fake:
        monkeypatch.setenv("OPENAI_API_KEY", PROVIDER_KEY)
        monkeypatch.setenv("MLEBENCH_GATEWAY_UPSTREAM", f"openai={fake.url}")
        yield fake
