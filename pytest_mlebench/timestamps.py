"""The one format of every time stamp the package writes: UTC, ISO 8601, to the second.

Records, grade reports, summaries, manifests and the validator's call log all use it, so stamps
from different files look alike and parse with :meth:`datetime.fromisoformat`.
"""

from __future__ import annotations

from datetime import datetime, timezone


def utc_timestamp() -> str:
    """Now, in UTC, as ISO 8601 to the second, e.g. ``2026-01-01T12:00:00+00:00``."""
    return datetime.now(timezone.utc).isoformat(timespec="seconds")
