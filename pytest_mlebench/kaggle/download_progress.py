"""Progress of a long byte stream (a download, an extraction) in a terminal or a log.

On a terminal the line is redrawn in place; anywhere else (CI logs, ``| tee``) one line is
written at most every :data:`LOG_INTERVAL` seconds, so a 100 GB download does not flood a log.
A download is watched from outside: the Kaggle client writes the file itself, and
:class:`FileGrowthWatcher` polls its size from a thread.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import TextIO

TTY_INTERVAL = 0.5
LOG_INTERVAL = 5.0
UNITS = ("B", "KB", "MB", "GB", "TB")


def human_bytes(count: float) -> str:
    """``1.5 GB`` style, decimal units as Kaggle's data pages show them."""
    for unit in UNITS:
        if abs(count) < 1000 or unit == UNITS[-1]:
            return f"{count:.0f} {unit}" if unit == "B" else f"{count:.1f} {unit}"
        count /= 1000
    raise AssertionError("unreachable")  # pragma: no cover


class ByteProgress:
    """Reports ``done`` bytes of ``total`` (``None``: unknown) under a label, rate-limited."""

    def __init__(
        self,
        label: str,
        total: int | None,
        *,
        stream: TextIO | None = None,
        interval: float | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = label
        self.total = total
        self._stream = stream or sys.stdout
        self._tty = self._stream.isatty()
        self._interval = interval if interval is not None else self._default_interval()
        self._clock = clock
        self._last = clock()
        self._shown = False

    def _default_interval(self) -> float:
        return TTY_INTERVAL if self._tty else LOG_INTERVAL

    def update(self, done: int) -> None:
        """Show ``done`` unless a line was shown less than the interval ago."""
        now = self._clock()
        if now - self._last < self._interval:
            return
        self._last = now
        self._show(done)

    def finish(self, done: int) -> None:
        """End the display; a line is written only when progress was shown at all."""
        if self._shown:
            self._show(done)
            if self._tty:
                self._stream.write("\n")
                self._stream.flush()

    def text(self, done: int) -> str:
        if not self.total:
            return f"{self.label}: {human_bytes(done)}"
        share = min(100.0, 100.0 * done / self.total)
        return f"{self.label}: {human_bytes(done)} of {human_bytes(self.total)} ({share:.0f} %)"

    def _show(self, done: int) -> None:
        self._shown = True
        if self._tty:
            self._stream.write(f"\r{self.text(done)}\x1b[K")
        else:
            self._stream.write(self.text(done) + "\n")
        self._stream.flush()


class FileGrowthWatcher:
    """Feeds the size of a file someone else writes into a :class:`ByteProgress`.

    Use as a context manager around the call that writes ``path``.
    """

    def __init__(self, path: Path, progress: ByteProgress, poll: float = TTY_INTERVAL) -> None:
        self._path = path
        self._progress = progress
        self._poll = poll
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mlebench-progress", daemon=True)

    def __enter__(self) -> FileGrowthWatcher:
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join()
        self._progress.finish(self._size())

    def _run(self) -> None:
        while not self._stop.wait(self._poll):
            self._progress.update(self._size())

    def _size(self) -> int:
        try:
            return self._path.stat().st_size
        except OSError:
            return 0
