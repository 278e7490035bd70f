"""Option values below the settings: the one time-limit rule, and what the settings may import."""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

import pytest

import pytest_mlebench
from pytest_mlebench.values.time_limit import run_time_limit

PACKAGE = Path(pytest_mlebench.__file__).parent
SETTINGS_MODULES = (
    "settings.py",
    "setting_spec.py",
    "setting_table.py",
    "eng_settings.py",
    "comparison_settings.py",
    "rerun_settings.py",
    "checkpoint_settings.py",
    "report_settings.py",
    "anytime_settings.py",
)
# The foundation and the data layer: what the settings may build on (never a feature).
SETTINGS_MAY_IMPORT = ("pytest_mlebench.errors", "pytest_mlebench.data", "pytest_mlebench.values")
FEATURES = ("gateway", "agents", "integrity")


@dataclass(frozen=True)
class Toy:
    time_limit: int


@pytest.mark.parametrize(
    ("option", "competition", "expected"),
    [(None, 3600, 3600), (30, 3600, 30), (7200, 60, 7200)],
)
def test_the_option_wins_over_the_competitions_time_limit(
    option: int | None, competition: int, expected: int
) -> None:
    assert run_time_limit(option, Toy(competition)) == expected


def package_imports(path: Path) -> set[str]:
    """The ``pytest_mlebench`` modules ``path`` imports (deferred imports included)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text("utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "pytest_mlebench":
            found.update(f"pytest_mlebench.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("pytest_mlebench")}


@pytest.mark.parametrize("module", SETTINGS_MODULES)
def test_the_settings_import_only_values_and_the_data_layer(module: str) -> None:
    own = {f"pytest_mlebench.{name.removesuffix('.py')}" for name in SETTINGS_MODULES}
    others = package_imports(PACKAGE / module) - own
    assert {name for name in others if not name.startswith(SETTINGS_MAY_IMPORT)} == set()


@pytest.mark.parametrize("feature", FEATURES)
def test_no_feature_imports_the_settings(feature: str) -> None:
    settings = {f"pytest_mlebench.{name.removesuffix('.py')}" for name in SETTINGS_MODULES}
    offenders = [
        str(path.relative_to(PACKAGE))
        for path in sorted((PACKAGE / feature).rglob("*.py"))
        if package_imports(path) & settings
    ]
    assert offenders == []
