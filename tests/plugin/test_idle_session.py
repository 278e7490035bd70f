"""A session that uses nothing of the plugin loads nothing heavy of it; one that collects the
benchmark test wakes it without being asked (docs/benchmarks.md, "A session that uses nothing").

Each session runs in a fresh interpreter: the test's own process has long imported everything.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HEAVY = ("numpy", "pandas", "pyarrow", "docker", "yaml", "sklearn", "scipy")

SESSION = """
import json, sys
import pytest
code = pytest.main(sys.argv[1:])
loaded = sorted({name.split(".")[0] for name in sys.modules})
print(json.dumps({"code": int(code), "loaded": loaded, "modules": sorted(sys.modules)}))
"""


def run_session(folder: Path, *args: str) -> tuple[dict[str, object], str]:
    done = subprocess.run(
        [sys.executable, "-c", SESSION, "-p", "no:cacheprovider", "-p", "no:randomly", *args],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,
    )
    report: dict[str, object] = json.loads(done.stdout.splitlines()[-1])
    return report, done.stdout


def test_an_idle_session_imports_nothing_heavy(tmp_path: Path) -> None:
    (tmp_path / "test_plain.py").write_text("def test_one():\n    assert True\n")
    report, output = run_session(tmp_path, "-q")
    assert report["code"] == 0, output
    modules = report["modules"]
    assert isinstance(modules, list)
    assert "pytest_mlebench.plugin" in modules  # the entry point was loaded, and stayed asleep
    assert "pytest_mlebench.session_plugin" not in modules
    assert not set(HEAVY) & set(report["loaded"]), f"an idle session imported {HEAVY}"  # type: ignore[arg-type]


def test_collecting_the_benchmark_test_wakes_the_plugin(tmp_path: Path) -> None:
    (tmp_path / "test_bench.py").write_text(
        "from pytest_mlebench.benchmark import test_competition\n__all__ = ['test_competition']\n"
    )
    report, output = run_session(tmp_path, "--co", "-q", "-m", "lite")
    assert report["code"] == 0, output
    assert "test_bench.py::test_competition[aerial-cactus-identification]" in output
    assert "pytest_mlebench.session_plugin" in report["modules"]  # type: ignore[operator]


def test_a_test_asking_for_a_plugin_fixture_wakes_it(tmp_path: Path) -> None:
    (tmp_path / "test_own.py").write_text(
        "def test_sees_the_registry(mle_session):\n"
        "    assert mle_session.registry.get('digits').id == 'digits'\n"
    )
    report, output = run_session(tmp_path, "-q")
    assert report["code"] == 0, output
