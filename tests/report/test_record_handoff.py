"""The report hooks get the finished record object from the run, not a copy read back from disk."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.hooks import record_of
from tests.report.builders import record as make_record


@dataclass
class FakeRun:
    run_dir: Path
    record: RunRecord | None = None


@dataclass
class FakeItem:
    funcargs: dict[str, Any] = field(default_factory=dict)


def test_the_record_object_is_handed_on_without_a_file(tmp_path: Path) -> None:
    record = make_record("toy", 0)
    item = FakeItem({"mle_run": FakeRun(tmp_path, record)})
    assert not (tmp_path / "record.json").exists()
    assert record_of(item) is record  # type: ignore[arg-type]


def test_no_record_before_the_run_finished(tmp_path: Path) -> None:
    (tmp_path / "record.json").write_text('{"competition_id": "stale"}')
    assert record_of(FakeItem({"mle_run": FakeRun(tmp_path)})) is None  # type: ignore[arg-type]
    assert record_of(FakeItem()) is None  # type: ignore[arg-type]
