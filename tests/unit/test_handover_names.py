"""Only the test module knows the benchmark tests' and fixtures' names.

The reports, the selection and the session's notes know a run by the ticket in its item's stash
and by the record its run handed over (``pytest_mlebench/handover.py``). This test fails when a
module of the engine spells one of those names again: such a module would find runs by name and
miss any test that is a run under another name (the engineering runs once were).
``pytest_mlebench/benchmark.py`` defines the tests; ``fixtures/`` (linked into the package)
defines the fixtures and is not scanned.
"""

from __future__ import annotations

import re
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "pytest_mlebench"
TEST_MODULE = ENGINE / "benchmark.py"
LINKED = ("fixtures", "graders", "competitions")  # top-level folders linked into the package
NAMES = (
    "test_competition",
    "test_engineering_task",
    "mle_case",
    "mle_eng_case",
    "mle_run",
    "mle_task_run",
)
PATTERN = re.compile(r"\b(" + "|".join(NAMES) + r")\b")


def mentions(root: Path) -> list[str]:
    """``path:line: name`` of each mention of a name in the modules under ``root``."""
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root)
        if path == TEST_MODULE or relative.parts[0] in LINKED:
            continue
        for number, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            found += [f"{relative}:{number}: {m.group(1)}" for m in PATTERN.finditer(line)]
    return found


def test_no_engine_module_names_the_benchmark_tests_or_their_fixtures() -> None:
    found = mentions(ENGINE)
    assert not found, (
        "read the run from item.stash (pytest_mlebench.handover) instead of naming the test or "
        f"its fixtures: {found}"
    )


def test_the_check_sees_a_name(tmp_path: Path) -> None:
    (tmp_path / "report").mkdir()
    (tmp_path / "report" / "hooks.py").write_text('run = item.funcargs["mle_run"]\n')
    (tmp_path / "fixtures").mkdir()
    (tmp_path / "fixtures" / "benchmark.py").write_text("def mle_case(): ...\n")
    assert mentions(tmp_path) == ["report/hooks.py:1: mle_run"]
