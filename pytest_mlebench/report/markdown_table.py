"""A Markdown table from rows of strings (``summary.md`` and the engineering views share it)."""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["cell", "table"]


def cell(value: object) -> str:
    """A table cell: pipes escaped, line breaks flattened."""
    return str(value).replace("|", "\\|").replace("\n", " ")


def table(rows: Sequence[Sequence[str]]) -> list[str]:
    """A Markdown table; the first row is the header."""
    head, *body = rows
    lines = ["| " + " | ".join(cell(c) for c in head) + " |"]
    lines.append("|" + "|".join("---" for _ in head) + "|")
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in body]
    return lines
