"""Former home of the grade; it lives in :mod:`pytest_mlebench.records.grade_report`.

Kept so that imports written before the record layer existed keep working; new code imports
from :mod:`pytest_mlebench.records`.
"""

from __future__ import annotations

from pytest_mlebench.records.grade_report import GradeReport

__all__ = ["GradeReport"]
