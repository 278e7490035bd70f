"""The record's note for an agent that exited with an error: its code and its last line."""

from __future__ import annotations

import pytest

from pytest_mlebench.records.build import exit_note
from pytest_mlebench.sandbox.interface import ExecResult


@pytest.mark.parametrize(
    ("code", "timed_out", "tail", "note"),
    [
        (0, False, "done\n", None),
        (None, False, "", None),
        (137, True, "killed\n", None),  # the timeout has its own note
        (
            3,
            False,
            "step 1\naide: not installed\n\n",
            "agent exited with code 3: aide: not installed",
        ),
        (1, False, "", "agent exited with code 1: no output"),
    ],
)
def test_exit_note(code: int | None, timed_out: bool, tail: str, note: str | None) -> None:
    result = ExecResult(exit_code=code, timed_out=timed_out, wall_seconds=1.0, output_tail=tail)
    assert exit_note(result) == note


def test_a_long_last_line_is_cut() -> None:
    result = ExecResult(exit_code=2, timed_out=False, wall_seconds=1.0, output_tail="x" * 1000)
    note = exit_note(result)
    assert note is not None and len(note) < 400


@pytest.mark.parametrize(("code", "timed_out"), [(0, False), (137, False), (None, True)])
def test_an_oom_kill_is_a_reason_whatever_the_exit(code: int | None, timed_out: bool) -> None:
    result = ExecResult(
        exit_code=code, timed_out=timed_out, wall_seconds=1.0, output_tail="", oom_killed=True
    )
    note = exit_note(result)
    assert note is not None and note.startswith("out of memory: the kernel killed a process")
