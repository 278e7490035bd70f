"""pytest-mlebench: every MLE-bench competition as a pytest test.

The public API is small: the value objects and the functions the plugin itself uses.
"""

from __future__ import annotations

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
