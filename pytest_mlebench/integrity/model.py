"""Former home of the integrity verdict; it lives in :mod:`pytest_mlebench.records.verdict`.

Kept so that imports written before the record layer existed keep working; the integrity
checks and new code import from :mod:`pytest_mlebench.records.verdict`.
"""

from __future__ import annotations

from pytest_mlebench.records.verdict import (
    SEVERITIES,
    Flag,
    IntegrityReport,
    Mode,
    Severity,
    severity_rank,
    sort_flags,
)

__all__ = [
    "SEVERITIES",
    "Flag",
    "IntegrityReport",
    "Mode",
    "Severity",
    "severity_rank",
    "sort_flags",
]
