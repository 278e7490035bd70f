"""``--mle-require``: what a graded run must reach to pass, from nothing to gold."""

from __future__ import annotations

from typing import Literal

REQUIRE_LEVELS = ("none", "valid", "above-median", "bronze", "silver", "gold")
Require = Literal["none", "valid", "above-median", "bronze", "silver", "gold"]
