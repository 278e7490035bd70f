"""Wording of the one-line reasons given for an invalid submission.

Reasons quote values from the file, so every quoted value goes through :func:`show_value`: it is
shortened and escaped so that a reason is always a single readable line.
"""

from __future__ import annotations

from collections.abc import Sequence

_LIST_LIMIT = 8


def show_value(value: object, *, limit: int = 40) -> str:
    """Quote a value for a message: ``repr`` of its text, cut to ``limit`` characters."""
    text = str(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return repr(text)


def show_names(names: Sequence[str]) -> str:
    """List column names, ``id, target``, shortening a long list."""
    shown = [name if name and name.isprintable() else repr(name) for name in names[:_LIST_LIMIT]]
    if len(names) > _LIST_LIMIT:
        shown.append(f"… ({len(names)} in all)")
    return ", ".join(shown)


def show_quoted(names: Sequence[str]) -> str:
    """List values quoted, ``'a', 'b'``, shortening a long list."""
    shown = [show_value(name) for name in names[:_LIST_LIMIT]]
    if len(names) > _LIST_LIMIT:
        shown.append(f"… ({len(names)} in all)")
    return ", ".join(shown)


def count(number: int, singular: str, plural: str | None = None) -> str:
    """``1 id`` / ``3 ids``."""
    word = singular if number == 1 else (plural or singular + "s")
    return f"{number} {word}"


def describe_size(size: int) -> str:
    """A byte count for people, in decimal megabytes: ``62.9 MB``."""
    return f"{size / 1e6:.1f} MB"
