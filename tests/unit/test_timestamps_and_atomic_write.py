"""The one time stamp format and the one atomic file write."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.timestamps import utc_timestamp


def test_timestamp_is_utc_iso_to_the_second() -> None:
    before = datetime.now(timezone.utc).replace(microsecond=0)
    stamp = utc_timestamp()
    after = datetime.now(timezone.utc)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", stamp)
    parsed = datetime.fromisoformat(stamp)
    assert parsed.utcoffset() == timedelta(0)
    assert before <= parsed <= after


def test_atomic_write_creates_and_replaces(tmp_path: Path) -> None:
    path = tmp_path / "summary.json"
    assert write_atomically(path, "first\n") == path
    write_atomically(path, "second ✓\n")
    assert path.read_text("utf-8") == "second ✓\n"
    assert [p.name for p in tmp_path.iterdir()] == ["summary.json"]


def test_a_failed_atomic_write_keeps_the_old_file_and_no_scratch(tmp_path: Path) -> None:
    path = tmp_path / "summary.json"
    path.write_text("old\n")
    with pytest.raises(UnicodeEncodeError):
        write_atomically(path, "half \ud800 written")  # a lone surrogate cannot be UTF-8
    assert path.read_text() == "old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["summary.json"]
