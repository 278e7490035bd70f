"""Download and build time, and size, of the ``ml`` image profile (on demand; not a test).

    .venv/bin/python bench/ml_image.py [--fresh-download] [--no-cache] [--wheelhouse DIR]

Steps, each timed with a monotonic clock and printed as one line:

1. **download**: the wheels of ``profiles/ml/requirements.lock`` with the host's pip, into the
   cached wheelhouse (``--fresh-download``: into an empty temporary folder, deleted afterwards,
   so every wheel is fetched again) or checked in ``--wheelhouse DIR``;
2. **build**: ``build_profile("ml")`` from those wheels (``--no-cache``: without Docker's layer
   cache, so the install runs again even when the image exists; the base image is reused);
3. **size**: the image's size as the engine reports it, the venv's size inside it, and the
   number of pinned packages.

The load average before and after is printed too; the build shares the machine with whatever
else runs. The image is kept (``pytest-mlebench-ml:<hash>`` and ``:latest``); with ``--no-cache``
the image it replaces is removed when no container uses it.
"""

from __future__ import annotations

import argparse
import os
import platform
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from pytest_mlebench.sandbox.docker import wheelhouse
from pytest_mlebench.sandbox.docker.engine import docker_client
from pytest_mlebench.sandbox.docker.profiles import LOCK_NAME, build_profile, profile_dir

SIZE_OF_VENV = ["du", "-sb", "/opt/mlebench-ml"]
T = TypeVar("T")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--fresh-download", action="store_true")
    parser.add_argument("--no-cache", action="store_true")
    parser.add_argument("--wheelhouse", type=Path)
    args = parser.parse_args()
    print(f"machine: {platform.node()}, {os.cpu_count()} CPUs, load {load()} before")
    lock = profile_dir("ml") / LOCK_NAME
    with tempfile.TemporaryDirectory(prefix="bench-wheels-") as scratch:
        folder = args.wheelhouse or (
            Path(scratch) if args.fresh_download else wheelhouse.default_wheelhouse()
        )
        seconds, wheels = timed(lambda: download(lock, folder, given=args.wheelhouse is not None))
        size = sum(path.stat().st_size for path in wheels.values())
        print(f"download: {seconds:.0f} s, {len(wheels)} wheels, {size / 1e9:.2f} GB in {folder}")
        seconds, tag = timed(lambda: build(folder, args.no_cache))
        print(f"build: {seconds:.0f} s -> {tag}")
    report_size(tag, len(wheels))
    print(f"load {load()} after")


def download(lock: Path, folder: Path, *, given: bool) -> dict[str, Path]:
    if given:
        return wheelhouse.use_wheelhouse(lock, folder, progress=lambda line: None)
    return wheelhouse.fill_wheelhouse(lock, folder, progress=lambda line: None)


def build(folder: Path, no_cache: bool) -> str:
    return build_profile("ml", wheels_from=folder, force=no_cache, progress=lambda line: None)


def report_size(tag: str, pins: int) -> None:
    client = docker_client(timeout=600)
    try:
        size = client.images.get(tag).attrs["Size"]
        venv = client.containers.run(tag, SIZE_OF_VENV, remove=True, user="root").decode().split()
    finally:
        client.close()
    print(f"size: image {size / 1e9:.2f} GB, venv {int(venv[0]) / 1e9:.2f} GB, {pins} packages")


def timed(action: Callable[[], T]) -> tuple[float, T]:
    started = time.monotonic()
    result = action()
    return time.monotonic() - started, result


def load() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


if __name__ == "__main__":
    main()
