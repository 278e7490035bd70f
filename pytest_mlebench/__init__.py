"""pytest-mlebench: every MLE-bench competition as a pytest test.

The public API is small: the value objects and the functions the plugin itself uses. The names
are imported on first use (PEP 562), so importing the package — which pytest does for every
session in an environment where the plugin is installed — loads none of the grading,
registry or sandbox code, nor numpy, pyarrow or docker.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pytest_mlebench.errors import MLEBenchError
    from pytest_mlebench.grading import GradeReport, grade_submission
    from pytest_mlebench.registry import Competition, load_registry
    from pytest_mlebench.sandbox.interface import Sandbox

__all__ = [
    "Competition",
    "GradeReport",
    "MLEBenchError",
    "Sandbox",
    "grade_submission",
    "load_registry",
]

_HOMES = {
    "Competition": "pytest_mlebench.registry",
    "GradeReport": "pytest_mlebench.grading",
    "MLEBenchError": "pytest_mlebench.errors",
    "Sandbox": "pytest_mlebench.sandbox.interface",
    "grade_submission": "pytest_mlebench.grading",
    "load_registry": "pytest_mlebench.registry",
}


def __getattr__(name: str) -> Any:
    """Import a public name's module the first time the name is asked for."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'pytest_mlebench' has no attribute {name!r}")
    value = getattr(import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
