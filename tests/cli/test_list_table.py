"""``mlebench list``: every column lines up, however long an id is."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from tests.factories import write_competition

LONG_ID = "a-competition-id-far-longer-than-any-column-was-meant-for"


def test_columns_line_up_with_a_long_id(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_competition(tmp_path / "defs", LONG_ID)
    assert main(["list", "--competitions-dir", str(tmp_path / "defs")]) == 0
    lines = capsys.readouterr().out.split("\n\n")[0].splitlines()
    header, rows = lines[0], lines[1:]
    start = header.index("complexity")
    assert all(row[start - 2 : start] == "  " and row[start] != " " for row in rows), lines
    long_row = next(row for row in rows if row.startswith(LONG_ID))
    assert long_row[start:].split()[0] in ("low", "medium", "high")
