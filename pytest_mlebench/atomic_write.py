"""Replace a file's content atomically: a reader sees the old file or the new one, never half.

The text goes to a hidden temporary file beside the target (same folder, so the same file
system), which :func:`os.replace` then renames over it; a failed write leaves the target as it was
and no temporary file behind. Used for every file that another process may read while it is
written (summaries, mle-bench reports, the GPU lease table).
"""

from __future__ import annotations

import os
import threading
from pathlib import Path


def write_atomically(path: Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` in one rename; the folder must exist.

    Returns:
        ``path``.
    """
    # Process and thread in the name: two writers of the same file never share a scratch file.
    scratch = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        scratch.write_text(text, "utf-8")
        os.replace(scratch, path)
    except BaseException:
        scratch.unlink(missing_ok=True)
        raise
    return path
