"""The leaderboards of the Medium and High competitions: the reference files, pinned.

``boards.json`` pins, per competition, the SHA-256 of ``leaderboard.csv`` (for MLE-bench's own
boards the oid of its Git LFS pointer, so anyone can check the file is the original's), the row
count and the gold/silver/bronze/median thresholds computed from it by Kaggle's rules. A board
that ships without a pin, or a pin without its board, fails too.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from pytest_mlebench.definition import load_competition
from tests.full.shapes import load_shapes

HERE = Path(__file__).resolve().parent
COMPETITIONS = HERE.parents[1] / "competitions"
PINNED: dict[str, dict[str, object]] = json.loads((HERE / "boards.json").read_text("utf-8"))


def test_every_full_competition_with_a_shape_has_a_pinned_board() -> None:
    assert set(load_shapes()) <= set(PINNED)


@pytest.mark.parametrize("competition_id", sorted(PINNED))
def test_the_board_is_the_pinned_file(competition_id: str) -> None:
    board = COMPETITIONS / competition_id / "leaderboard.csv"
    assert hashlib.sha256(board.read_bytes()).hexdigest() == PINNED[competition_id]["sha256"]


@pytest.mark.parametrize("competition_id", sorted(PINNED))
def test_the_thresholds_are_pinned(competition_id: str) -> None:
    competition = load_competition(COMPETITIONS / competition_id)
    pin = PINNED[competition_id]
    thresholds = competition.thresholds
    assert thresholds is not None
    assert len(competition.leaderboard_scores) == pin["n"]
    assert competition.lower_is_better is pin["lower_is_better"]
    for key in ("gold", "silver", "bronze", "median"):
        assert getattr(thresholds, key) == pytest.approx(pin[key], abs=0), key
