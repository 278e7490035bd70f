"""Pip lock files with hashes, and the host-side wheelhouse an image build installs from.

The image's Python is CPython 3.11 on manylinux x86_64 (Debian bookworm). The host's own ``pip``
(with whatever index configuration the user has) downloads the lock's wheels for that target into
a cached folder; the build copies them into its context as ``wheelhouse/`` and installs with
``--no-index --require-hashes``, so nothing inside the build touches the network. An air-gapped
user fills a folder elsewhere and passes it as ``--wheelhouse DIR``.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.digests import sha256_file
from pytest_mlebench.errors import SandboxError

Progress = Callable[[str], None]

# The image's interpreter: what pip must download wheels for (not the host's own).
TARGET_PYTHON = ("--python-version", "3.11", "--implementation", "cp", "--abi", "cp311")
# Bookworm has glibc 2.36: every manylinux tag up to it fits (pip does not expand them itself).
TARGET_PLATFORMS = (
    *(f"manylinux_2_{minor}_x86_64" for minor in range(36, 4, -1)),
    "manylinux2014_x86_64",
    "manylinux2010_x86_64",
    "manylinux1_x86_64",
)
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^\s;]+)$")
HASH = re.compile(r"^--hash=sha256:([0-9a-f]{64})$")


@dataclass(frozen=True)
class Pin:
    """One line of a lock: a distribution, its exact version and the sha256 of its allowed files."""

    name: str
    version: str
    hashes: frozenset[str]

    @property
    def key(self) -> str:
        return normalize(self.name)


def normalize(name: str) -> str:
    """A distribution name as wheel file names and PEP 503 compare it."""
    return re.sub(r"[-_.]+", "_", name).lower()


def target_args() -> list[str]:
    """The ``pip download`` arguments for the image's interpreter and platform."""
    platforms = [arg for tag in TARGET_PLATFORMS for arg in ("--platform", tag)]
    return [*TARGET_PYTHON, *platforms, "--only-binary=:all:"]


def default_wheelhouse() -> Path:
    """``$XDG_CACHE_HOME/mlebench/wheels`` (``~/.cache/mlebench/wheels`` when unset)."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "mlebench" / "wheels"


def read_lock(path: Path) -> tuple[Pin, ...]:
    """Every pin of a lock file; each must be ``name==version`` with ``--hash=sha256:...``."""
    try:
        text = path.read_text("utf-8")
    except OSError as exc:
        raise SandboxError(f"lock file {path} cannot be read ({exc.strerror})") from None
    pins = [_parse_pin(path, number, line) for number, line in _logical_lines(text)]
    if not pins:
        raise SandboxError(f"lock file {path} pins no package")
    return tuple(pins)


def _logical_lines(text: str) -> Iterator[tuple[int, str]]:
    """(first line number, joined text) of each requirement, comments and blanks dropped."""
    pending, start = "", 0
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split(" #", 1)[0].strip() if not raw.lstrip().startswith("#") else ""
        if not pending:
            start = number
        if line.endswith("\\"):
            pending += line[:-1] + " "
            continue
        joined = (pending + line).strip()
        pending = ""
        # Global options (--index-url, --find-links, ...) that pip-compile may write: the build
        # installs with --no-index from the wheelhouse whatever they say.
        if joined and not joined.startswith("-"):
            yield start, joined


def _parse_pin(path: Path, number: int, line: str) -> Pin:
    """One requirement line: ``name==version [; marker] --hash=sha256:... [--hash=...]``."""
    requirement = re.split(r"[\s;]", line, maxsplit=1)[0]
    match = PIN.match(requirement)
    where = f"lock file {path}, line {number}"
    if match is None:
        raise SandboxError(
            f"{where}: {requirement!r} is not pinned; every line must be name==version with "
            "--hash=sha256:... (make one with `mlebench sandbox lock`, see docs/sandbox.md)"
        )
    hashes = [option for option in line.split() if option.startswith("--hash=")]
    found = [HASH.match(option) for option in hashes]
    if not hashes or None in found:
        raise SandboxError(
            f"{where}: {requirement} has no --hash=sha256:... ; a lock without hashes cannot be "
            "installed offline safely (make one with `mlebench sandbox lock`, see docs/sandbox.md)"
        )
    digests = frozenset(hit.group(1) for hit in found if hit is not None)
    return Pin(name=match.group(1), version=match.group(3), hashes=digests)


def wheel_key(filename: str) -> tuple[str, str] | None:
    """(normalized name, version) from a wheel file name, ``None`` for anything else."""
    if not filename.endswith(".whl"):
        return None
    parts = filename[:-4].split("-")
    return (normalize(parts[0]), parts[1]) if len(parts) >= 5 else None


def match_wheels(pins: tuple[Pin, ...], folder: Path) -> tuple[dict[str, Path], list[str]]:
    """The wheel of each pin found in ``folder``, and a line per pin without a good one.

    A wheel whose name and version match but whose sha256 is not in the lock is a hard error:
    a corrupt download or a lock that does not belong to these files.
    """
    by_key: dict[tuple[str, str], list[Path]] = {}
    for path in sorted(folder.glob("*.whl")) if folder.is_dir() else ():
        key = wheel_key(path.name)
        if key is not None:
            by_key.setdefault(key, []).append(path)
    found: dict[str, Path] = {}
    missing: list[str] = []
    for pin in pins:
        candidates = by_key.get((pin.key, pin.version), [])
        good = [path for path in candidates if sha256_file(path) in pin.hashes]
        if good:
            found[pin.key] = good[0]
        elif candidates:
            raise SandboxError(
                f"hash mismatch: {candidates[0]} is not the file the lock pins for "
                f"{pin.name}=={pin.version} (its sha256 is {sha256_file(candidates[0])}); delete "
                "it and download again, or regenerate the lock if it is out of date"
            )
        else:
            missing.append(f"{pin.name}=={pin.version}")
    return found, missing


def fill_wheelhouse(lock: Path, folder: Path, progress: Progress) -> dict[str, Path]:
    """Download what ``folder`` lacks with the host's pip; returns the wheel of every pin."""
    pins = read_lock(lock)
    found, missing = match_wheels(pins, folder)
    if not missing:
        progress(f"wheelhouse {folder}: all {len(pins)} wheels of {lock.name} are there")
        return found
    progress(f"downloading {len(missing)} of {len(pins)} wheels of {lock.name} into {folder}")
    folder.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "pip", "download", "--no-deps", "--require-hashes"]
    command += [*target_args(), "--progress-bar", "off", "--dest", str(folder), "-r", str(lock)]
    _run_pip(command, progress, what=f"downloading the wheels of {lock}")
    found, missing = match_wheels(pins, folder)
    if missing:
        raise SandboxError(f"pip left out {', '.join(missing)} from {folder}")
    return found


def use_wheelhouse(lock: Path, folder: Path, progress: Progress) -> dict[str, Path]:
    """The wheels of ``lock`` from a prepared folder (``--wheelhouse``); never downloads."""
    if not folder.is_dir():
        raise SandboxError(
            f"wheelhouse {folder} does not exist; on a machine with a package index run "
            f"`{download_command(lock, folder)}`, then copy that folder here"
        )
    found, missing = match_wheels(read_lock(lock), folder)
    if missing:
        shown = ", ".join(missing[:5]) + (
            f" and {len(missing) - 5} more" if len(missing) > 5 else ""
        )
        raise SandboxError(
            f"wheelhouse {folder} lacks {shown}; on a machine with a package index run "
            f"`{download_command(lock, folder)}`, then copy that folder here"
        )
    progress(f"wheelhouse {folder}: all {len(found)} wheels of {lock.name} are there")
    return found


def download_command(lock: Path, folder: Path) -> str:
    """The command that fills ``folder`` with the wheels of ``lock`` (for an air-gapped user)."""
    parts = ["python3", "-m", "pip", "download", "--no-deps", "--require-hashes", *target_args()]
    return shlex.join([*parts, "--dest", str(folder), "-r", str(lock)])


def link_wheels(wheels: dict[str, Path], target: Path) -> None:
    """Put the wheels into a build context folder: hard links where possible, else copies."""
    target.mkdir(parents=True, exist_ok=True)
    for path in wheels.values():
        destination = target / path.name
        try:
            os.link(path, destination)
        except OSError:
            shutil.copyfile(path, destination)


def make_lock(requirements: Path, lock: Path, progress: Progress) -> int:
    """Resolve ``requirements`` for the image's interpreter with the host's pip; write ``lock``.

    Returns the number of pins. The lock keeps the hash of the one file pip chose for the target,
    so the download later picks exactly that file.
    """
    with tempfile.TemporaryDirectory(prefix="mlebench-lock-") as work:
        report = Path(work) / "report.json"
        command = [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed"]
        command += [*target_args(), "--target", str(Path(work) / "target")]
        command += ["--report", str(report), "-r", str(requirements)]
        _run_pip(command, progress, what=f"resolving {requirements}")
        lines = lock_lines(json.loads(report.read_text("utf-8")))
    header = [
        f"# Generated from {requirements.name} by `mlebench sandbox lock` for CPython 3.11,",
        "# manylinux x86_64 (the image's interpreter). Do not edit by hand.",
    ]
    lock.write_text("\n".join(header + lines) + "\n", "utf-8")
    return len(lines)


def lock_lines(report: dict[str, Any]) -> list[str]:
    """``name==version --hash=sha256:...`` lines from a ``pip install --report`` document."""
    lines = []
    for item in report.get("install") or []:
        metadata, download = item["metadata"], item["download_info"]
        digest = download.get("archive_info", {}).get("hashes", {}).get("sha256")
        if not digest:
            raise SandboxError(f"pip reported no sha256 for {download.get('url')}")
        lines.append(f"{metadata['name']}=={metadata['version']} \\\n    --hash=sha256:{digest}")
    return sorted(lines, key=str.lower)


def _run_pip(command: list[str], progress: Progress, *, what: str) -> None:
    progress("$ " + shlex.join(command))
    tail: list[str] = []
    proc = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, errors="replace"
    )
    if proc.stdout is None:  # pragma: no cover - we asked for a pipe
        raise SandboxError(f"{what}: pip gave no output stream")
    for line in proc.stdout:
        progress(line.rstrip())
        tail = [*tail, line.rstrip()][-8:]
    if proc.wait() != 0:
        details = "\n".join(tail)
        raise SandboxError(f"{what} failed (pip exit status {proc.returncode}):\n{details}")
