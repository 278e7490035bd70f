"""Closest known names for a mistyped one: competition ids, split and marker names."""

from __future__ import annotations

import difflib
from collections.abc import Iterable

MAX_SUGGESTIONS = 3
# difflib's similarity ratio a name must reach to be offered ("titanc" vs "titanic" is 0.92).
CUTOFF = 0.6


def closest(word: str, candidates: Iterable[str]) -> list[str]:
    """Up to three ``candidates`` most like ``word`` (case-insensitive), best first."""
    by_lower = {name.lower(): name for name in sorted(set(candidates))}
    matches = difflib.get_close_matches(word.lower(), by_lower, MAX_SUGGESTIONS, CUTOFF)
    return [by_lower[match] for match in matches]


def did_you_mean(names: Iterable[str]) -> str:
    """``"; did you mean: a, b?"``, or ``""`` when there is nothing to offer."""
    offered = list(dict.fromkeys(names))
    return f"; did you mean: {', '.join(offered)}?" if offered else ""
