"""The agent's stop reason: one line in ``LOGS_DIR/stop_reason.txt``, read as hostile input, kept
in the record (old records read back without it) and said in the reason of a failed run's line."""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

from pytest_mlebench.agents.stop_reason import MAX_CHARS, read_stop_reason, stop_reason_text
from pytest_mlebench.records.run_record import RunRecord
from tests.report.builders import record


@pytest.mark.parametrize(
    ("raw", "text"),
    [
        (b"RepeatedFormatError: no usable call (3 model call(s))\n", "RepeatedFormatError: no "
         "usable call (3 model call(s))"),
        (b"\n\n  steps done  \nsecond line\n", "steps done"),
        (b"stopped\x1b[31m red\x00\x07\n", "stopped[31m red"),
        (b"\xff\xfeok\n", "\ufffd\ufffdok"),
        (b"\n \t\n", None),
        (b"", None),
    ],
)  # fmt: skip
def test_the_first_line_is_kept_without_control_characters(raw: bytes, text: str | None) -> None:
    assert stop_reason_text(raw) == text


def test_a_long_line_is_cut(tmp_path: Path) -> None:
    (tmp_path / "stop_reason.txt").write_bytes(b"x" * 10_000_000)  # read no further than the bound
    text = read_stop_reason(tmp_path)
    assert text is not None and len(text) == MAX_CHARS and text.endswith("…")


def test_no_file_a_link_or_a_fifo_gives_none(tmp_path: Path) -> None:
    assert read_stop_reason(tmp_path) is None
    secret = tmp_path / "secret.txt"
    secret.write_text("host secret\n")
    (tmp_path / "stop_reason.txt").symlink_to(secret)
    assert read_stop_reason(tmp_path) is None  # a link the agent left is not followed
    fifo_dir = tmp_path / "fifo"
    fifo_dir.mkdir()
    os.mkfifo(fifo_dir / "stop_reason.txt")
    assert read_stop_reason(fifo_dir) is None  # and a pipe never blocks the harness


def test_the_record_keeps_it_and_old_records_read_back_without_it() -> None:
    stopped = replace(record("a", 0, 0.4), stop_reason="TimeExceeded: the time limit was reached")
    assert RunRecord.from_dict(json.loads(stopped.to_json())).stop_reason == stopped.stop_reason
    old = json.loads(stopped.to_json())
    del old["stop_reason"]
    assert RunRecord.from_dict(old).stop_reason is None
