"""Copies of ``submission.csv`` taken while the agent runs, kept as harness files.

:class:`SubmissionWatcher` is a context manager around the agent's run: a daemon thread asks the
sandbox every ``poll`` seconds for the submission's size and modification time (one ``stat`` run
by the harness's own user, :meth:`~pytest_mlebench.sandbox.interface.Sandbox.exec_harness`) and,
when they changed, copies the file out through the sandbox's ``copy_out`` (links never
followed, nothing past the grader's own size cap) into ``run_dir/submission_copies/NNNN.csv``.
On exit it looks once more, so the last state counts. ``copies.json`` there lists each copy with
the agent's seconds when it was seen. Nothing is shown to the agent, and the folder is on the
host, out of its reach.

The count is bounded: past ``keep`` copies, every second one of the older ones is dropped
(:func:`thin_evenly`), so a run that rewrites its submission every minute for 24 hours keeps
copies spread over the whole run, the first and the latest always among them.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.sandbox.beside_agent import BesideAgent
from pytest_mlebench.sandbox.copy_budget import CopyBudget
from pytest_mlebench.sandbox.interface import Sandbox

log = logging.getLogger(__name__)

COPIES = "submission_copies"
COPIES_JSON = "copies.json"
DEFAULT_POLL_SECONDS = 10.0
DEFAULT_KEEP = 48
STAT_TIMEOUT = 30.0
STAT_LOG = ".stat.log"


@dataclass(frozen=True)
class CopyPlan:
    """How a run keeps submission copies, in plain values (it travels with the job).

    Attributes:
        poll: Seconds between two looks at the submission's size and mtime.
        keep: The most copies kept (older ones are thinned evenly past it).
        time_used_before: The agent's seconds used by attempts this run resumes from.
    """

    poll: float = DEFAULT_POLL_SECONDS
    keep: int = DEFAULT_KEEP
    time_used_before: float = 0.0


@dataclass(frozen=True)
class SubmissionCopyEntry:
    """One kept copy: its number, file (in ``submission_copies/``), the agent's seconds when it
    was seen, and the size and mtime the sandbox reported."""

    number: int
    file: str
    time_used: float
    size: int
    mtime: str


def thin_evenly(entries: list[SubmissionCopyEntry], keep: int) -> list[SubmissionCopyEntry]:
    """``entries`` cut to at most ``keep`` (at least 2): every second entry dropped, oldest
    first, the first and the last always kept, until they fit."""
    keep = max(keep, 2)
    kept = list(entries)
    while len(kept) > keep:
        middle = kept[1:-1]
        kept = [kept[0], *middle[1::2], kept[-1]]
    return kept


def read_copies(run_dir: Path) -> list[SubmissionCopyEntry]:
    """The copies a run kept (``copies.json``), oldest first; none when it kept none or the list
    is unreadable."""
    try:
        data = json.loads((run_dir / COPIES / COPIES_JSON).read_text("utf-8"))
        return [SubmissionCopyEntry(**entry) for entry in data]
    except (OSError, ValueError, TypeError):
        return []


class SubmissionWatcher(BesideAgent):
    """Copies the sandbox's submission into ``run_dir`` each time it changes while the body
    runs."""

    thread_name = "mlebench-copies"

    def __init__(
        self, sandbox: Sandbox, run_dir: Path, plan: CopyPlan, *, max_submission: int
    ) -> None:
        super().__init__(plan.poll, plan.time_used_before)
        self.sandbox = sandbox
        self.folder = run_dir / COPIES
        self.plan = plan
        self.max_submission = max_submission
        self.entries = read_copies(run_dir)  # a resumed run goes on with its own
        self.looks = 0
        self._seen = self.entries[-1].mtime if self.entries else None
        self._number = self.entries[-1].number if self.entries else 0

    def opening(self) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)

    def tick(self) -> None:
        self.look()

    def stop_wait(self, *, interrupted: bool) -> float:
        return STAT_TIMEOUT

    def closing(self, *, finished: bool) -> None:
        if finished:
            self.look()  # the agent's last word: the state it ended in

    def look(self) -> SubmissionCopyEntry | None:
        """Look at the submission once; copy it when its size or mtime changed. A failure is
        logged, never raised: copies never break a run."""
        self.looks += 1
        try:
            state = self._state()
            if state is None or f"{state[0]} {state[1]}" == self._seen:
                return None
            return self._copy(*state)
        except Exception as exc:
            log.warning("submission copy of %s failed: %s", self.folder.parent.name, exc)
            return None

    def _state(self) -> tuple[int, str] | None:
        """``(size, mtime)`` of the submission as the sandbox sees it (the link itself, if the
        agent made one); ``None`` when there is none or it is not a regular file."""
        path = self.sandbox.paths.submission_file
        log_path = self.folder / STAT_LOG  # never a file in the agent's own logs/
        try:
            result = self.sandbox.exec_harness(
                ["stat", "-c", "%F|%s|%.9Y", path], timeout=STAT_TIMEOUT, log_path=log_path
            )
        finally:
            log_path.unlink(missing_ok=True)  # the answer is in the result; logs append
        lines = result.output_tail.strip().splitlines()
        fields = lines[-1].split("|") if lines else []
        if result.exit_code != 0 or len(fields) != 3 or fields[0] != "regular file":
            return None
        return int(fields[1]), fields[2]

    def _copy(self, size: int, mtime: str) -> SubmissionCopyEntry | None:
        time_used = self.time_used()
        self._seen = f"{size} {mtime}"
        if size > self.max_submission:
            return None  # the grader refuses it unread; its bytes never reach the host
        number = self._number + 1
        name = f"{number:04d}.csv"
        budget = CopyBudget(total_bytes=self.max_submission)
        copied = self.sandbox.copy_out(
            self.sandbox.paths.submission_file,
            self.folder / name,
            max_file_bytes=self.max_submission,
            budget=budget,
        )
        if not copied or not (self.folder / name).is_file():
            return None
        self._number = number
        entry = SubmissionCopyEntry(number, name, round(time_used, 3), size, mtime)
        self.entries.append(entry)
        self._keep_within_bound()
        return entry

    def _keep_within_bound(self) -> None:
        kept = thin_evenly(self.entries, self.plan.keep)
        names = {entry.file for entry in kept}
        for entry in self.entries:
            if entry.file not in names:
                (self.folder / entry.file).unlink(missing_ok=True)
        self.entries = kept
        rows: list[dict[str, Any]] = [asdict(entry) for entry in kept]
        write_atomically(self.folder / COPIES_JSON, json.dumps(rows, indent=2))
