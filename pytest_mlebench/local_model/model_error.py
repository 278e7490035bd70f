"""The one error of the local model server (its own module so that every part can raise it)."""

from __future__ import annotations

from pytest_mlebench.errors import SandboxError


class LocalModelError(SandboxError):
    """The local model server cannot start: a missing package or file, a port in use, a crash
    (infrastructure: the message says what to install or change)."""
