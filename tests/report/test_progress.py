"""Live progress lines: one per state change, a periodic status line, nothing from workers."""

from __future__ import annotations

import time

import pytest

from pytest_mlebench.records.verdict import Flag, IntegrityReport
from pytest_mlebench.report.progress import (
    ProgressBoard,
    Ticker,
    clock_text,
    outcome_properties,
)
from tests.report.builders import record


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "00:00"), (59.9, "00:59"), (61, "01:01"), (3600, "1:00:00"), (-5, "00:00")],
)
def test_clock_text(seconds: float, text: str) -> None:
    assert clock_text(seconds) == text


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_state_changes_and_status_line() -> None:
    lines: list[str] = []
    clock = Clock()
    board = ProgressBoard(lines.append, lambda nodeid: (nodeid[-5:], 600.0), clock)
    board.total = 2
    board.started("x::toy-a")
    board.started("x::toy-b")
    clock.now = 10
    board.setup_finished("x::toy-a", "passed")
    clock.now = 140
    assert board.status_line() == (
        "mlebench: [02:20] 0/2 done, 0 medal(s) | toy-a agent running 02:10/10:00 "
        "| toy-b preparing 02:20"
    )
    props = outcome_properties(record("toy-a", 0, 0.95))
    board.call_finished("x::toy-a", "passed", props)
    board.setup_finished("x::toy-b", "skipped")
    assert lines == [
        "mlebench: toy-a preparing",
        "mlebench: toy-b preparing",
        "mlebench: toy-a agent running (limit 10:00)",
        "mlebench: toy-a done after 02:10: passed, score 0.95, gold",
        "mlebench: toy-b not run (skipped)",
    ]
    assert board.status_line() is None
    assert (board.done, board.medals) == (2, 1)


def test_ticker_prints_the_status_line_while_runs_are_in_flight() -> None:
    lines: list[str] = []
    board = ProgressBoard(lines.append, lambda nodeid: ("toy-a", 60.0))
    board.started("x::toy-a")
    ticker = Ticker(board, 0.01)
    ticker.start()
    deadline = time.monotonic() + 5
    while len(lines) < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    ticker.stop()
    assert lines[0] == "mlebench: toy-a preparing"
    assert lines[1].startswith("mlebench: [00:00] 0 done, 0 medal(s) | toy-a preparing 00:00")


def test_a_medal_withheld_by_strict_integrity_shows_as_no_medal() -> None:
    lines: list[str] = []
    board = ProgressBoard(lines.append, lambda nodeid: ("toy-a", 60.0), Clock())
    verdict = IntegrityReport(
        mode="strict",
        flags=(Flag("process", "editor", "high", "an editor ran"),),
        medal_withheld=True,
        earned_medal="gold",
    )
    withheld = record("toy-a", 0, 0.95, integrity=verdict)
    assert withheld.earned_medal == "gold" and withheld.medal is None
    board.started("x::toy-a")
    board.setup_finished("x::toy-a", "passed")
    board.call_finished("x::toy-a", "passed", outcome_properties(withheld))
    assert lines[-1] == (
        "mlebench: toy-a done after 00:00: passed, score 0.95, no medal "
        "(gold withheld by integrity)"
    )
    assert board.medals == 0
