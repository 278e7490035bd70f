"""The Docker backend's copy-out: the engine's archive of a path, read within the run's budget.

The engine stats the path before it streams it; a regular file over its own cap, or over what
the run's :class:`~pytest_mlebench.sandbox.copy_budget.CopyBudget` has left, is refused from
that stat alone, so not one byte of a sparse 5 GiB submission crosses the engine's socket. Any
other path is streamed through :func:`~pytest_mlebench.sandbox.copying.extract_stream`, which
stops reading at :data:`~pytest_mlebench.sandbox.copying.STREAM_SLACK` times the budget's total.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pytest_mlebench.sandbox.copy_budget import CopyBudget
from pytest_mlebench.sandbox.copying import STREAM_SLACK, ChunkReader, extract_stream
from pytest_mlebench.sandbox.docker.engine import import_docker

# The type bits of a Go ``os.FileMode`` (the engine's stat of an archive's top entry).
GO_MODE_TYPE_BITS = 0xFF280000


def copy_from_container(
    container: Any,
    source: str,
    destination: Path,
    max_file_bytes: int | None,
    budget: CopyBudget,
) -> bool:
    """Copy ``source`` out of ``container`` to ``destination``; False when it does not exist."""
    try:
        stream, facts = container.get_archive(source)
    except import_docker().errors.NotFound:
        return False
    if not admits_top(facts, destination, max_file_bytes, budget):
        stream.close()  # a file over its cap is never streamed at all
        return True
    reader = ChunkReader(stream, limit=STREAM_SLACK * budget.total_bytes)
    return extract_stream(reader, destination, max_file_bytes, budget)


def admits_top(
    facts: dict[str, Any], destination: Path, max_file_bytes: int | None, budget: CopyBudget
) -> bool:
    """Whether the top entry the engine stat-ed is worth streaming: a regular file over its cap
    or over what the budget has left is refused (noted) before a byte of it is read."""
    mode, size = int(facts.get("mode") or 0), int(facts.get("size") or 0)
    if mode & GO_MODE_TYPE_BITS:  # a folder, link, FIFO, device or socket: the stream decides
        return True
    if max_file_bytes is not None and size > max_file_bytes:
        return budget.admit_file(destination, size, max_file_bytes)  # False, and noted
    return budget.fits(destination, size)
