"""The run's watermark: one nonce per run, as the agent's environment and instructions carry it.

:class:`Watermark` is a frozen value made once per run (by the run's
:class:`~pytest_mlebench.integrity.monitor.IntegrityRun`) and carried in the sandbox job
(:class:`~pytest_mlebench.sandbox_phase.SandboxJob`), which puts it into the sandbox's
environment and the end of the instructions; the watch in the sandbox phase writes it into the
evidence. Nothing else makes or copies a nonce.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

NONCE_ENV = "MLEBENCH_RUN_NONCE"
NONCE_BYTES = 16


@dataclass(frozen=True)
class Watermark:
    """The run's nonce, and what it becomes in the sandbox.

    Attributes:
        nonce: 32 hex digits, unique per run.
    """

    nonce: str

    @classmethod
    def new(cls) -> Watermark:
        """A watermark with a fresh random nonce."""
        return cls(secrets.token_hex(NONCE_BYTES))

    @property
    def env(self) -> dict[str, str]:
        """The sandbox's environment entry (``MLEBENCH_RUN_NONCE``)."""
        return {NONCE_ENV: self.nonce}

    def note(self) -> str:
        """The lines appended to the agent's instructions."""
        return instructions_note(self.nonce)


def instructions_note(nonce: str) -> str:
    """The watermark section of the instructions for ``nonce``."""
    return (
        "\n\n## Run watermark\n\n"
        f"This run's nonce is `{nonce}` (also in the environment as `{NONCE_ENV}`). Everything "
        "you submit must be made during this run; the harness records what runs in the "
        "sandbox and checks the submission against files that existed before it started.\n"
    )
