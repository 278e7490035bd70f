"""The report hooks get the finished record object from the run, not a copy read back from disk:
the run fixture hands the run a callback that files the record in the item's stash."""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from pytest_mlebench.handover import RECORD_KEY, record_of, record_sink
from tests.report.builders import record as make_record


@dataclass
class FakeItem:
    """A named fake of a collected item: only its stash."""

    stash: pytest.Stash = field(default_factory=pytest.Stash)


def test_the_record_object_is_handed_over_through_the_callback() -> None:
    item = FakeItem()
    record = make_record("toy", 0)
    record_sink(item)(record)  # type: ignore[arg-type]
    assert item.stash[RECORD_KEY] is record
    assert record_of(item) is record


def test_no_record_before_the_run_finished() -> None:
    assert record_of(FakeItem()) is None
    assert record_of(object()) is None  # not an item at all
