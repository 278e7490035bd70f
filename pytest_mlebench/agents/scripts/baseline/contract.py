"""The sandbox contract as the baseline agent sees it: folders, time limit and seed from the
environment, and the share of the time limit the agent allows itself."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

TIME_SHARE = 0.5  # of TIME_LIMIT_SECS; the rest is slack for reading, writing and validating


@dataclass(frozen=True)
class Env:
    """The sandbox contract, read from the environment."""

    data: Path
    submission: Path
    logs: Path
    code: Path | None
    time_limit: float
    seed: int
    validator: str | None
    started: float = field(default_factory=time.monotonic)

    @classmethod
    def from_environ(cls) -> Env:
        code = os.environ.get("CODE_DIR")
        return cls(
            data=Path(os.environ.get("DATA_DIR", "/home/data")),
            submission=Path(os.environ.get("SUBMISSION_DIR", "/home/submission")),
            logs=Path(os.environ.get("LOGS_DIR", "/home/logs")),
            code=Path(code) if code else None,
            time_limit=float(os.environ.get("TIME_LIMIT_SECS") or 3600),
            seed=int(os.environ.get("MLEBENCH_SEED") or 0),
            validator=os.environ.get("VALIDATE_SUBMISSION") or None,
        )

    def seconds_left(self) -> float:
        """Seconds of this agent's own budget (a share of the time limit) still unused."""
        return TIME_SHARE * self.time_limit - self.elapsed()

    def elapsed(self) -> float:
        """Seconds since the agent started."""
        return time.monotonic() - self.started
