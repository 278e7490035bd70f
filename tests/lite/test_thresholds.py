"""The medal thresholds of every shipped Lite leaderboard, as ``mlebench list --json`` prints them.

``thresholds.json`` pins, per competition, the row count and the gold/silver/bronze/median scores
computed from the board by Kaggle's rules, and the board's SHA-256: the ``oid`` of the original
MLE-bench's Git LFS pointer, so every Lite board is the original's file byte for byte. A changed
board or a change to the medal rules shows here first; a board that ships without a pin fails too,
and so does a Lite competition without a board (all 22 award medals).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.digests import sha256_file
from pytest_mlebench.registry import read_id_list

HERE = Path(__file__).resolve().parent
COMPETITIONS = HERE.parents[1] / "competitions"
PINNED: dict[str, dict[str, object]] = json.loads((HERE / "thresholds.json").read_text("utf-8"))
LITE = read_id_list(COMPETITIONS / "splits" / "lite.txt")


def _list_json(capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, object]]:
    assert main(["list", "--json"]) == 0
    return {row["id"]: row for row in json.loads(capsys.readouterr().out)}


def test_every_shipped_lite_board_is_pinned() -> None:
    shipped = {cid for cid in LITE if (COMPETITIONS / cid / "leaderboard.csv").is_file()}
    assert shipped == set(PINNED)


def test_all_22_lite_competitions_ship_the_originals_board() -> None:
    assert len(LITE) == 22 and set(PINNED) == set(LITE)
    for cid in LITE:
        board = COMPETITIONS / cid / "leaderboard.csv"
        assert board.is_file(), f"{cid} ships no leaderboard"
        assert sha256_file(board) == PINNED[cid]["sha256"], cid
        assert board.read_text("utf-8").startswith(
            "scoreNullable,teamId,hasTeamName,submissionDate,score,hasScore\n"
        ), cid


def test_list_json_prints_the_pinned_thresholds(capsys: pytest.CaptureFixture[str]) -> None:
    rows = _list_json(capsys)
    defined = [cid for cid in PINNED if cid in rows]
    for cid in defined:
        board = rows[cid]["leaderboard"]
        pin = PINNED[cid]
        assert isinstance(board, dict), cid
        assert board["rows"] == pin["n"], cid
        for key in ("gold", "silver", "bronze", "median"):
            assert board[key] == pytest.approx(pin[key], abs=0), (cid, key)
        assert rows[cid]["lower_is_better"] is pin["lower_is_better"], cid


def test_a_lite_competition_without_a_board_lists_none(capsys: pytest.CaptureFixture[str]) -> None:
    rows = _list_json(capsys)
    for cid in LITE:
        if cid in rows and not (COMPETITIONS / cid / "leaderboard.csv").is_file():
            assert rows[cid]["leaderboard"] is None, cid
