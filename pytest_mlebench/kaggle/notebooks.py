"""A Kaggle notebook (``.ipynb`` JSON) as the source file the similarity check compares. Pure.

The similarity check tokenises code, not a notebook's JSON: the code cells are joined in order,
a blank line between cells, and shell (``!pip …``) and magic (``%matplotlib``) lines become
comments so the tokenizer of the notebook's language reads every line. Markdown and outputs are
dropped. The language comes from the notebook's kernel spec (``python`` unless it says R).
"""

from __future__ import annotations

import json
from typing import Any

from pytest_mlebench.errors import MLEBenchError

SUFFIXES = {"python": ".py", "r": ".r"}
SCRIPT_SUFFIXES = {".py": ".py", ".r": ".r", ".rmd": ".r"}


class NotANotebook(MLEBenchError):
    """The text is not notebook JSON with a list of cells."""


def notebook_source(text: str) -> tuple[str, str]:
    """The code of a notebook and the suffix of its language (``.py`` or ``.r``).

    Raises:
        NotANotebook: When ``text`` is not notebook JSON.
    """
    try:
        notebook = json.loads(text)
    except json.JSONDecodeError as exc:
        raise NotANotebook(f"not notebook JSON: {exc}") from None
    cells = notebook.get("cells") if isinstance(notebook, dict) else None
    if not isinstance(cells, list):
        raise NotANotebook("not notebook JSON: no list of cells")
    code = [_cell_text(cell) for cell in cells if isinstance(cell, dict)]
    blocks = [block for block in code if block is not None and block.strip()]
    return "\n\n".join(blocks) + "\n", SUFFIXES.get(_language(notebook), ".py")


def _cell_text(cell: dict[str, Any]) -> str | None:
    if cell.get("cell_type") != "code":
        return None
    source = cell.get("source", "")
    text = "".join(source) if isinstance(source, list) else str(source)
    return "\n".join(_commented(line) for line in text.splitlines())


def _commented(line: str) -> str:
    return f"# {line}" if line.lstrip().startswith(("!", "%")) else line


def _language(notebook: dict[str, Any]) -> str:
    metadata = notebook.get("metadata") or {}
    for key in ("kernelspec", "language_info"):
        entry = metadata.get(key) or {}
        name = str(entry.get("language") or entry.get("name") or "").lower()
        if name:
            return "r" if name in ("r", "ir") else name
    return "python"
