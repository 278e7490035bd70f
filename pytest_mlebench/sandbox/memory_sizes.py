"""Memory sizes as Docker writes them (``4g``, ``512m``), read into bytes.

Here, below the run layer, so that the engineering evidence (H-memory) and the Ray executor read
a grant the same way."""

from __future__ import annotations

import re

from pytest_mlebench.errors import SandboxError

_UNITS = {"": 1, "b": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}


def size_in_bytes(size: str) -> int:
    """``4g`` → bytes (Docker's units, powers of 1024)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([bkmgt]?)b?\s*", size.lower())
    if match is None:
        raise SandboxError(f"cannot read the memory size {size!r}; write it like 4g or 512m")
    return int(float(match.group(1)) * _UNITS[match.group(2)])
