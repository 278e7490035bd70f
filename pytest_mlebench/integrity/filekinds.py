"""Which files count as code, as other readable source, or as data: one list for every check."""

from __future__ import annotations

CODE_SUFFIXES = frozenset(
    {".py", ".ipynb", ".sh", ".bash", ".r", ".jl", ".scala", ".java", ".c", ".cc", ".cpp", ".js",
     ".ts", ".go", ".rs", ".sql", ".m"}
)  # fmt: skip
"""Programs: what "the agent wrote code" means, and what similarity compares."""

SOURCE_SUFFIXES = CODE_SUFFIXES | frozenset(
    {".h", ".pl", ".rb", ".lua", ".kt", ".swift", ".yaml", ".yml", ".json", ".toml", ".cfg",
     ".txt", ".md", ".log"}
)  # fmt: skip
"""Readable text an agent leaves behind: code, configuration, notes and logs."""

DATA_SUFFIXES = frozenset({".csv", ".tsv", ".psv", ".jsonl"})
"""Tables: where hand-written predictions would sit."""

SIMILARITY_SUFFIXES = CODE_SUFFIXES - {".ipynb"}
"""Code compared token by token (a notebook's JSON is not tokenised as its code)."""
