"""Former home of the run record; it lives in :mod:`pytest_mlebench.records.run_record`.

Kept so that imports written before the record layer existed keep working; new code imports
from :mod:`pytest_mlebench.records`.
"""

from __future__ import annotations

from pytest_mlebench.records.run_record import (
    RECORD_VERSION,
    Outcome,
    RunRecord,
    append_record,
    read_records,
)

__all__ = ["RECORD_VERSION", "Outcome", "RunRecord", "append_record", "read_records"]
