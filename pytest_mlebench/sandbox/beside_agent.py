"""A thread that works beside a running agent: every interval, until the agent's run ends.

:class:`BesideAgent` is the shape the harness's periodic watchers share (the checkpoint
snapshots, :mod:`pytest_mlebench.checkpoint.snapshotter`; the submission copies,
:mod:`pytest_mlebench.anytime.copies`): a context manager around the agent's run that starts a
daemon thread calling :meth:`BesideAgent.tick` every ``interval`` seconds, and on exit stops it,
waits for a tick in progress (as long as :meth:`BesideAgent.stop_wait` says) and tells
:meth:`BesideAgent.closing` whether the run ended normally with the thread done. The agent's
seconds so far (those of earlier attempts a resumed run carries included) are
:meth:`BesideAgent.time_used`. A tick must not raise: a watcher never breaks a run.
"""

from __future__ import annotations

import threading
import time
from abc import ABC, abstractmethod
from types import TracebackType
from typing import ClassVar, Self


class BesideAgent(ABC):
    """Calls :meth:`tick` every ``interval`` seconds while the ``with`` body (the agent) runs.

    Args:
        interval: Seconds between two ticks (the first comes one interval after the start).
        time_used_before: The agent's seconds used by the attempts a resumed run goes on from.
    """

    thread_name: ClassVar[str] = "mlebench-beside-agent"

    def __init__(self, interval: float, time_used_before: float = 0.0) -> None:
        self.interval = interval
        self.time_used_before = time_used_before
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name=self.thread_name, daemon=True)
        self._started = 0.0

    def __enter__(self) -> Self:
        self._started = time.monotonic()
        self.opening()
        self._thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stop.set()
        self._thread.join(self.stop_wait(interrupted=kind is not None))
        self.closing(finished=kind is None and not self._thread.is_alive())

    def time_used(self) -> float:
        """The agent's seconds so far, earlier attempts included."""
        return self.time_used_before + time.monotonic() - self._started

    @abstractmethod
    def tick(self) -> None:
        """One round of the watcher's work; must not raise."""

    def opening(self) -> None:
        """Before the thread starts."""
        return None

    def closing(self, *, finished: bool) -> None:
        """After the thread stopped; ``finished``: the run ended normally and no tick is left
        in progress."""
        return None

    def stop_wait(self, *, interrupted: bool) -> float:
        """Seconds to wait for a tick in progress when the run ends (``interrupted``: it
        raised, Ctrl-C say)."""
        return 60.0

    def _loop(self) -> None:
        while not self._stop.wait(self.interval):
            self.tick()
