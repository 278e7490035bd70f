"""Live progress of a long session, printed by the controller only.

The controller sees every test start and every phase report — from xdist workers too — so it
prints one line per state change (``preparing`` → ``agent running`` → ``done``) and, every
``--mle-progress`` seconds while runs are in flight, one status line with each run's elapsed
time against its limit. Workers print nothing: the outcome, score and medal travel to the
controller in the report's ``user_properties`` (key :data:`PROPERTY`). The medal shown is the one
the run counts with (:attr:`~pytest_mlebench.records.run_record.RunRecord.medal`): a medal that
``--mle-integrity strict`` withheld shows as no medal, naming the one withheld. The board keys
runs by node id without reading it: ``resolve`` answers from the tickets the runs were collected
with (:mod:`pytest_mlebench.handover`), ``None`` for any other test.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.records.run_record import RunRecord

PROPERTY = "mlebench"
Write = Callable[[str], None]
Resolve = Callable[[str], "tuple[str, float | None] | None"]


def clock_text(seconds: float) -> str:
    """``mm:ss`` (``h:mm:ss`` from one hour on)."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes:02d}:{secs:02d}"


def outcome_properties(record: RunRecord) -> dict[str, Any]:
    """The few facts of a finished run the controller prints (JSON-safe for xdist)."""
    grade = record.grade
    return {
        "competition_id": record.competition_id,
        "seed": record.seed,
        "outcome": record.outcome,
        "score": grade.score if grade else None,
        "medal": record.medal,
        "withheld": record.earned_medal if record.medal_withheld else None,
        "valid": grade is not None and grade.valid_submission,
        "timed_out": record.timed_out,
        "failure_class": record.failure_class,
        "attempts": len(record.attempts) + 1,
    }


def failure_note(props: dict[str, Any]) -> str:
    """``, class agent_crash`` where the class says more than the medal (not ``medal`` or
    ``valid_no_medal``), then ``, 2 attempts`` for a run ``--mle-retries`` tried again."""
    failure, attempts = props.get("failure_class"), int(props.get("attempts") or 1)
    note = f", class {failure}" if failure not in (None, "medal", "valid_no_medal") else ""
    return note + (f", {attempts} attempts" if attempts > 1 else "")


@dataclass
class RunState:
    """One run in flight."""

    label: str
    state: str
    since: float
    limit: float | None


class ProgressBoard:
    """Runs in flight and finished, and the lines that describe them."""

    def __init__(self, write: Write, resolve: Resolve, clock: Callable[[], float] = time.monotonic):
        self._write = write
        self._resolve = resolve
        self._clock = clock
        self._lock = threading.Lock()
        self.running: dict[str, RunState] = {}
        self.done = 0
        self.medals = 0
        self.total: int | None = None
        self.started_at = clock()

    def emit(self, line: str) -> None:
        with self._lock:
            self._write(line)

    def started(self, nodeid: str) -> None:
        found = self._resolve(nodeid)
        if found is None:
            return
        label, limit = found
        self.running[nodeid] = RunState(label, "preparing", self._clock(), limit)
        self.emit(f"mlebench: {label} preparing")

    def setup_finished(self, nodeid: str, outcome: str) -> None:
        run = self.running.get(nodeid)
        if run is None:
            return
        if outcome != "passed":
            self._finish(nodeid, "not run (skipped)" if outcome == "skipped" else "error in setup")
            return
        run.state, run.since = "agent running", self._clock()
        limit = f" (limit {clock_text(run.limit)})" if run.limit else ""
        self.emit(f"mlebench: {run.label} agent running{limit}")

    def call_finished(self, nodeid: str, outcome: str, props: dict[str, Any] | None) -> None:
        run = self.running.get(nodeid)
        if run is None:
            return
        elapsed = clock_text(self._clock() - run.since)
        if props is None:
            self._finish(nodeid, f"done after {elapsed}: {outcome}")
            return
        score = props.get("score")
        medal = props.get("medal")
        self.medals += 1 if medal else 0
        text = f"done after {elapsed}: {props.get('outcome', outcome)}"
        text += f", score {score:.5g}" if isinstance(score, (int, float)) else ", no score"
        text += f", {medal}" if medal else ", no medal"
        withheld = props.get("withheld")
        text += f" ({withheld} withheld by integrity)" if withheld else ""
        text += ", TIMEOUT" if props.get("timed_out") else ""
        text += failure_note(props)
        self._finish(nodeid, text)

    def _finish(self, nodeid: str, text: str) -> None:
        run = self.running.pop(nodeid)
        self.done += 1
        self.emit(f"mlebench: {run.label} {text}")

    def status_line(self) -> str | None:
        """One line on everything in flight, or ``None`` when nothing is."""
        if not self.running:
            return None
        now = self._clock()
        parts = []
        for run in list(self.running.values()):
            spent = clock_text(now - run.since)
            limit = (
                f"/{clock_text(run.limit)}" if run.limit and run.state == "agent running" else ""
            )
            parts.append(f"{run.label} {run.state} {spent}{limit}")
        total = f"/{self.total}" if self.total else ""
        head = (
            f"mlebench: [{clock_text(now - self.started_at)}] {self.done}{total} done, "
            f"{self.medals} medal(s)"
        )
        return " | ".join([head, *parts])


class Ticker:
    """A daemon thread that prints the board's status line every ``interval`` seconds."""

    def __init__(self, board: ProgressBoard, interval: float):
        self._board = board
        self._interval = interval
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="mlebench-progress", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=5)

    def _run(self) -> None:
        while not self._stop.wait(self._interval):
            line = self._board.status_line()
            if line:
                self._board.emit(line)
