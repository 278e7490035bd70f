"""Closest known names for a mistyped one: competition ids, split and marker names."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

MAX_SUGGESTIONS = 3
# difflib's similarity ratio a name must reach to be offered ("titanc" vs "titanic" is 0.92).
CUTOFF = 0.6
MIN_PART = 4  # shorter words ("the", "of", "2019") say too little about which id was meant


def closest(word: str, candidates: Iterable[str]) -> list[str]:
    """Up to three ``candidates`` most like ``word`` (case-insensitive), best first; when none is
    close as a whole, those sharing a word of it ("spaceship-titanic" offers "titanic")."""
    by_lower = {name.lower(): name for name in sorted(set(candidates))}
    matches = difflib.get_close_matches(word.lower(), by_lower, MAX_SUGGESTIONS, CUTOFF)
    if not matches:
        mine = _parts(word.lower())
        matches = [name for name in by_lower if mine & _parts(name)][:MAX_SUGGESTIONS]
    return [by_lower[match] for match in matches]


def _parts(name: str) -> set[str]:
    """The words of an id (split at ``-``, ``_``, ``.`` and spaces), four letters or longer."""
    return {part for part in re.split(r"[-_. ]+", name) if len(part) >= MIN_PART}


def did_you_mean(names: Iterable[str]) -> str:
    """``"; did you mean: a, b?"``, or ``""`` when there is nothing to offer."""
    offered = list(dict.fromkeys(names))
    return f"; did you mean: {', '.join(offered)}?" if offered else ""
