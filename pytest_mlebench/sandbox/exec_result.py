"""What one command in a sandbox did: the value every backend's ``exec`` returns."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ExecResult:
    """What one command in the sandbox did.

    ``exit_code`` is ``None`` when the command never ended by itself (killed at its deadline);
    ``restarted`` says the sandbox had to be restarted to end processes that survived it.
    """

    exit_code: int | None
    timed_out: bool
    wall_seconds: float
    output_tail: str = ""
    cpu_seconds: float | None = None
    peak_memory_bytes: int | None = None
    oom_killed: bool = False
    restarted: bool = False
