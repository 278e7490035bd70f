"""The built wheel carries everything a project that merely installs the package needs."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [
    "pytest_mlebench/plugin.py",
    "pytest_mlebench/benchmark.py",
    "pytest_mlebench/instructions.md",
    "pytest_mlebench/values/default_integrity_policy.yaml",
    "pytest_mlebench/agents/scripts/dummy.py",
    "pytest_mlebench/agents/scripts/baseline/__main__.py",
    "pytest_mlebench/agents/scripts/baseline/entry.py",
    "pytest_mlebench/sandbox/validate_client.py",
    "pytest_mlebench/sandbox/conformance/__init__.py",
    "pytest_mlebench/sandbox/conformance/suite.py",
    "pytest_mlebench/py.typed",
    "pytest_mlebench/graders/__init__.py",
    "pytest_mlebench/graders/py.typed",
    "pytest_mlebench/fixtures/benchmark.py",
    "pytest_mlebench/competitions/splits/lite.txt",
    "pytest_mlebench/competitions/digits/config.yaml",
    "pytest_mlebench/competitions/digits/prepare.py",
    "pytest_mlebench/competitions/digits/description.md",
    "pytest_mlebench/competitions/digits/leaderboard.csv",
    "pytest_mlebench/competitions/titanic/config.yaml",
    "pytest_mlebench/engineering/splits/core.txt",
    "pytest_mlebench/fixtures/engineering.py",
    "pytest_mlebench/eng/verifier/mlebench_verify.py",
    "pytest_mlebench/eng/verifier/mlebench_verify_time.py",
    "pytest_mlebench/sandbox/image/profiles/eng/Dockerfile",
    "pytest_mlebench/sandbox/image/profiles/eng/requirements.lock",
]
# Packages a user's project commonly has of its own; the wheel must not shadow or clash with them.
CLASHING_PACKAGES = ("fixtures", "graders", "competitions")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "-q",
            "-w",
            str(out),
            str(ROOT),
        ],
        check=True,
    )
    return next(out.glob("pytest_mlebench-*.whl"))


def test_wheel_contains_engine_graders_fixtures_and_competitions(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [name for name in SHIPPED if name not in names]
    assert not missing, f"not in the wheel: {missing}"
    entry_points = next(n for n in names if n.endswith("entry_points.txt"))
    text = zipfile.ZipFile(wheel).read(entry_points).decode()
    assert "[pytest11]" in text and "pytest_mlebench.plugin" in text
    assert "mlebench = pytest_mlebench.cli:main" in text
    assert not any(name.startswith("tests/") for name in names)


def test_wheel_adds_exactly_one_top_level_import_name(wheel: Path) -> None:
    names = zipfile.ZipFile(wheel).namelist()
    top_level = {
        name.split("/")[0] for name in names if not name.split("/")[0].endswith(".dist-info")
    }
    assert top_level == {"pytest_mlebench"}


def test_installed_wheel_runs_the_smoke_suite(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "-q",
            "--no-deps",
            "--target",
            str(target),
            str(wheel),
        ],
        check=True,
    )
    project = tmp_path / "agent-project"
    for package in CLASHING_PACKAGES:
        # The user's own packages of the same names, importable from the project's root.
        (project / package).mkdir(parents=True)
        (project / package / "__init__.py").write_text(f"OWNER = 'the user ({package})'\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join((str(project), str(target)))}
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--pyargs",
            "pytest_mlebench.benchmark",
            "-m",
            "smoke",
            "--mle-agent",
            "dummy",
            "--mle-sandbox",
            "local",
            "-p",
            "no:cacheprovider",
            "--mle-data-dir",
            str(tmp_path / "data"),
            "--mle-results",
            "results.jsonl",
        ],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "2 passed" in result.stdout
    check = "; ".join(
        f"import {p}; assert {p}.OWNER.startswith('the user')" for p in CLASHING_PACKAGES
    )
    imports = subprocess.run(
        [sys.executable, "-c", check + "; import pytest_mlebench.plugin"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
    )
    assert imports.returncode == 0, imports.stderr
    records = [json.loads(line) for line in (project / "results.jsonl").read_text().splitlines()]
    assert sorted(r["competition_id"] for r in records) == ["digits", "titanic"]
    for record in records:
        assert record["run_dir"].startswith(str(project))
        assert record["grade"]["valid_submission"] is True
        assert record["grade"]["award"]["medal"] is None


THIRD_PARTY_BACKEND = """
import pytest

from pytest_mlebench.sandbox.conformance import SandboxConformance
from pytest_mlebench.sandbox.local import LocalSandbox


class ThirdPartySandbox(LocalSandbox):
    backend = "third-party"


class TestThirdPartySandbox(SandboxConformance):
    @pytest.fixture
    def make_sandbox(self):
        return ThirdPartySandbox
"""


def test_installed_wheel_ships_the_conformance_suite(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), wheel],
        check=True,
    )
    project = tmp_path / "backend-project"
    project.mkdir()
    (project / "test_backend.py").write_text(THIRD_PARTY_BACKEND)
    env = {**os.environ, "PYTHONPATH": str(target)}
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "test_backend.py", "-q", "-p", "no:cacheprovider"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "failed" not in result.stdout
