"""Where the graders' Arrow buffers are allocated, and handing freed memory back to the system.

Grading is one burst of large, short-lived buffers (a parsed CSV, hashed ids, reordered columns).
Arrow's default pool (mimalloc) keeps freed pages cached for reuse, which in ``bench/grade.py``
raised the peak memory of grading a million-row submission by up to 60 MB with no gain in
speed, so every Arrow call in the library passes :data:`MEMORY_POOL` (the system allocator)
explicitly; the process-wide default pool is left alone.

The system allocator has its own habit: a parsed CSV is hundreds of chunks of a few hundred
kilobytes, and once freed they stay in the allocator's free lists, counted in the resident set,
while the large numpy arrays that follow are mapped afresh and cannot reuse them (30–50 MB for a
million rows). :func:`release_free_memory` hands such free pages back (glibc's ``malloc_trim``,
a few milliseconds) and is called between the steps of grading. It changes no allocator setting,
so the rest of the process is unaffected.
"""

from __future__ import annotations

import ctypes
import platform
from collections.abc import Callable

import pyarrow as pa

MEMORY_POOL: pa.MemoryPool = pa.system_memory_pool()


def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, or None where the C library is another one."""
    if platform.system() != "Linux" or platform.libc_ver()[0] != "glibc":
        return None
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):
        return None
    return trim


_MALLOC_TRIM = _malloc_trim()


def release_free_memory() -> None:
    """Return the allocator's free pages to the system (a no-op off glibc)."""
    if _MALLOC_TRIM is not None:
        _MALLOC_TRIM(0)
