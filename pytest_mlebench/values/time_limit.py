"""The seconds one run gets: ``--mle-time-limit`` when it is given, else the competition's.

One rule for every place that needs it: the run's deadline, the timeout backstop of its test and
the live progress line. Also the one default of ``--mle-sandbox-grace``, which the option table and
the sandbox's spec both read.
"""

from __future__ import annotations

from typing import Protocol

# Seconds a Docker sandbox outlives its run's deadline when the harness is gone.
DEFAULT_SANDBOX_GRACE = 300


class TimeLimited(Protocol):
    """Anything with its own time limit in seconds (a competition's definition)."""

    @property
    def time_limit(self) -> int: ...


def run_time_limit(option: int | None, competition: TimeLimited) -> int:
    """``option`` (the ``--mle-time-limit`` setting) when set, else ``competition.time_limit``."""
    return option if option is not None else competition.time_limit
