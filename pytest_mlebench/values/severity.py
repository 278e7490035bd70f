"""The severity scale of integrity flags, worst last (used by the policy and by the records)."""

from __future__ import annotations

from typing import Literal

Severity = Literal["info", "low", "medium", "high"]
SEVERITIES: tuple[Severity, ...] = ("info", "low", "medium", "high")
