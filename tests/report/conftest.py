"""The report tests reuse the plugin tests' example project (toy competitions)."""

from __future__ import annotations

from tests.plugin.conftest import project

__all__ = ["project"]
