"""The bounds of one run's copy-out: a total, a per-file cap, an entry count and a depth.

Everything an agent leaves is hostile input, and the cheapest attack on a host is size: a sparse
file costs the agent nothing inside the sandbox and its full length on the host once copied. So
every size here is the *apparent* size (``st_size``, a tar member's ``size``): a 5 GiB sparse
file counts as 5 GiB. A :class:`CopyBudget` is shared by every ``copy_out`` of a run (submission,
logs, code, an engineering run's workspace); a file over its own cap is left behind with a short
``<name>.omitted.txt`` note (the note's bytes count too), and once the total or the entry count
is reached the copy-out stops: nothing more is written to the host, and :attr:`CopyBudget.capped`
says why, for the integrity evidence (flag ``copy-out-capped``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

MAX_TOTAL_BYTES = 1024**3  # a run's whole copy-out: submission, logs, code, workspace
MAX_ENTRIES = 50_000  # files and folders written to the host by one run
MAX_DEPTH = 64  # folders below a copied root
MAX_PATH_CHARS = 1024  # a path below a copied root
MAX_RECORDED = 20  # omitted entries kept by name in the evidence (all are counted)


@dataclass
class CopyBudget:
    """What a run's copy-out may still write, and what it left behind.

    Attributes:
        total_bytes: The cap on the bytes written for the whole run, notes included.
        max_entries: The cap on the files and folders written.
        written: Bytes written so far (apparent sizes).
        entries: Files and folders written so far.
        omitted: The first :data:`MAX_RECORDED` entries left behind, with why.
        omitted_count: How many entries were left behind in all.
        capped: Why the copy-out stopped early (``None``: it did not).
    """

    total_bytes: int = MAX_TOTAL_BYTES
    max_entries: int = MAX_ENTRIES
    written: int = 0
    entries: int = 0
    omitted: list[dict[str, Any]] = field(default_factory=list)
    omitted_count: int = 0
    capped: str | None = None

    @property
    def stopped(self) -> bool:
        """Whether the copy-out has reached a cap (nothing more is written)."""
        return self.capped is not None

    def admit_file(self, target: Path, size: int, max_file_bytes: int | None) -> bool:
        """Whether a file of apparent ``size`` may be written at ``target``; when not, it is
        recorded and (over its own cap only) a note is left in its place."""
        if self.stopped:
            self.leave(target, size, "the copy-out had already stopped at its cap")
            return False
        if max_file_bytes is not None and size > max_file_bytes:
            self.leave(target, size, f"over the {max_file_bytes} byte limit of one file")
            self._note(target, size, max_file_bytes)
            return False
        return self._take(size, target)

    def fits(self, target: Path, size: int) -> bool:
        """Whether ``size`` more bytes fit in what is left (nothing is taken); when they do
        not, the copy-out stops here."""
        if not self.stopped and self.written + size > self.total_bytes:
            self.capped = self._over_total(size, target)
        if self.stopped:
            self.leave(target, size, self.capped or "")
            return False
        return True

    def admit_folder(self, target: Path) -> bool:
        """Whether the folder ``target`` may be made (it counts as one entry)."""
        if self.stopped:
            return False
        return self._take(0, target)

    def admit_path(self, relative: PurePosixPath | Path, size: int, target: Path) -> bool:
        """Whether a path this deep and this long may be written at all (a deep tree is left
        behind, not failed on: the host's own path limit must not break the copy-out)."""
        parts = relative.parts
        if len(parts) <= MAX_DEPTH and len(str(relative)) <= MAX_PATH_CHARS:
            return True
        self.leave(target, size, f"deeper than {MAX_DEPTH} folders or {MAX_PATH_CHARS} characters")
        return False

    def leave(self, target: Path, size: int, why: str) -> None:
        """Record that ``target`` (``size`` apparent bytes) was not copied, and why."""
        self.omitted_count += 1
        if len(self.omitted) < MAX_RECORDED:
            self.omitted.append({"path": str(target), "bytes": size, "why": why})

    def summary(self) -> dict[str, Any]:
        """The integrity evidence's ``copy_out`` entry."""
        return {
            "total_cap_bytes": self.total_bytes,
            "written_bytes": self.written,
            "entries": self.entries,
            "omitted": list(self.omitted),
            "omitted_count": self.omitted_count,
            "capped": self.capped,
        }

    def _take(self, size: int, target: Path) -> bool:
        if self.entries + 1 > self.max_entries:
            self.capped = f"more than {self.max_entries} files and folders"
        elif self.written + size > self.total_bytes:
            self.capped = self._over_total(size, target)
        if self.capped is not None:
            self.leave(target, size, self.capped)
            return False
        self.entries += 1
        self.written += size
        return True

    def _over_total(self, size: int, target: Path) -> str:
        return (
            f"the total cap of {self.total_bytes} bytes ({self.written} written, {size} more "
            f"asked for {target.name})"
        )

    def _note(self, target: Path, size: int, limit: int) -> None:
        text = f"not copied out of the sandbox: {size} bytes, over the {limit} byte limit\n"
        note = target.with_name(target.name + ".omitted.txt")
        if self._take(len(text), note):
            note.parent.mkdir(parents=True, exist_ok=True)
            note.write_text(text, "utf-8")
