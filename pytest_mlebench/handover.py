"""The hand-over between the benchmark tests and the reports: which run a test is, and its record.

Two keys of ``item.stash``, owned here and nowhere else:

- :data:`CASE_KEY` holds the :class:`RunTicket` of a benchmark test: what kind of run it is
  (``competition`` or ``engineering``), its subject and seed, the label its lines show and its
  time limit. The plugin parametrises the benchmark tests with tickets, and :func:`stash_case`
  files each one in its item's stash as the item is collected, so the rerun selection, the
  counts and the progress board know a run before it starts.
- :data:`RECORD_KEY` holds the finished :class:`~pytest_mlebench.records.run_record.RunRecord`.
  The run fixture gives the run :func:`record_sink` of its item, a callback the run calls once
  with its record (pytest-benchmark's fixture shape): the reports are handed the record, they do
  not fish it out of the test's arguments.

A test is a benchmark run exactly when its item holds a ticket, whatever the test and its
fixtures are called: the reports read these keys only, never a test or fixture name, never a
node id.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import pytest

from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.run.case import RunCase

RunKind = Literal["competition", "engineering"]
RecordSink = Callable[[RunRecord], None]


@dataclass(frozen=True)
class RunTicket:
    """What the reports know of a benchmark test before it runs.

    Attributes:
        kind: ``competition`` or ``engineering``.
        case: The subject (competition or task id), seed and the case's own agent.
        label: The test's parameter id (``toy-a-s1``), how progress lines and titles name it.
        time_limit: The agent's seconds (``--mle-time-limit`` or the subject's own).
    """

    kind: RunKind
    case: RunCase
    label: str
    time_limit: int

    @property
    def subject(self) -> str:
        """The competition's or the task's id."""
        return self.case.subject

    @property
    def seed(self) -> int:
        return self.case.seed

    @property
    def pair(self) -> tuple[str, int]:
        """(subject, seed): how a run is matched across sessions and files."""
        return self.subject, self.seed

    def __repr__(self) -> str:
        # The case's: Allure's history id of a run is made of its pytest parameters' reprs, so
        # it stays what it was before tickets and does not move with the time limit.
        return repr(self.case)


CASE_KEY = pytest.StashKey[RunTicket]()
RECORD_KEY = pytest.StashKey[RunRecord]()


def stash_case(item: pytest.Item) -> RunTicket | None:
    """File the ticket ``item`` was parametrised with in its stash; ``None`` for any other test."""
    callspec = getattr(item, "callspec", None)
    params: dict[str, object] = callspec.params if callspec is not None else {}
    ticket = next((value for value in params.values() if isinstance(value, RunTicket)), None)
    if ticket is not None:
        item.stash[CASE_KEY] = ticket
    return ticket


def case_of(item: Any) -> RunTicket | None:
    """The ticket of a benchmark test's item, ``None`` for any other test."""
    stash = getattr(item, "stash", None)
    return stash.get(CASE_KEY, None) if stash is not None else None


def stashed_case(item: pytest.Item) -> RunTicket:
    """The ticket of ``item``, for its case fixture.

    Raises:
        MLEBenchError: ``item`` was not parametrised by the plugin (a test of its own that asks
            for the case fixture directly, with ``pytest.mark.parametrize``).
    """
    ticket = case_of(item)
    if ticket is None:
        raise MLEBenchError(
            f"{item.name}: its case comes from the pytest-mlebench plugin's parametrisation; "
            "ask for the run fixture and let the plugin parametrise it, without parametrize"
        )
    return ticket


def record_sink(item: pytest.Item) -> RecordSink:
    """The callback a run hands its finished record to (the error record of a run that broke
    too): it lands in ``item``'s stash for the report hooks."""

    def hand_over(record: RunRecord) -> None:
        item.stash[RECORD_KEY] = record

    return hand_over


def record_of(item: Any) -> RunRecord | None:
    """The record the run of ``item`` handed over, ``None`` before it finished (or never ran)."""
    stash = getattr(item, "stash", None)
    return stash.get(RECORD_KEY, None) if stash is not None else None
