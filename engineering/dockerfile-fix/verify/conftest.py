"""The facts of the harness's builds, read from ``$BUILD_DIR`` (the verifier has no engine).

Before this verifier runs, the harness built the final workspace's Dockerfile with its builder
(no network, only the allowed base image), ran the image once on the hidden input and built it
again after a one-line change of ``predict.py``; ``$BUILD_DIR`` holds what happened
(``docs/engineering.md``, "Images the harness builds").
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest


@dataclass
class Build:
    """One build's ``summary.json`` (``{}`` when the harness wrote none) and its log."""

    facts: dict[str, Any]
    log: str

    @property
    def ok(self) -> bool:
        return bool(self.facts.get("ok"))

    def describe(self) -> str:
        if self.facts.get("refused"):
            return f"refused: {self.facts['refused']}"
        if self.facts.get("skipped"):
            return str(self.facts["skipped"])
        tail = [line for line in self.log.strip().splitlines() if line.strip()][-3:]
        return "build failed: " + " | ".join(tail)[-300:]


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text("utf-8")) if path.is_file() else None


def _build(folder: Path) -> Build:
    log = folder / "build.log"
    text = log.read_text("utf-8") if log.is_file() else ""
    return Build(_read_json(folder / "summary.json") or {}, text)


@pytest.fixture(scope="session")
def build_dir() -> Path:
    return Path(os.environ["BUILD_DIR"])


@pytest.fixture(scope="session")
def build(build_dir: Path) -> Build:
    return _build(build_dir)


@pytest.fixture(scope="session")
def rebuild(build_dir: Path) -> Build:
    return _build(build_dir / "rebuild")


@pytest.fixture(scope="session")
def run_facts(build_dir: Path) -> dict[str, Any]:
    return _read_json(build_dir / "run.json") or {}


def require_build(build: Build) -> None:
    """The checks of the image's form count only once there is an image."""
    if not build.ok:
        pytest.fail(f"no image to judge ({build.describe()})")
