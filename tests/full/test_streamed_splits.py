"""Streamed prepares hold out the rows the original's in-memory split holds out.

facebook-recruiting-iii-keyword-extraction streams ``Train.csv`` in chunks and
tensorflow2-question-answering its JSON lines in blocks; both must pick exactly the rows that
scikit-learn's ``train_test_split`` picks over the whole table (facebook) or over each block of
1,000 lines (tf2-QA), as the original does with everything in memory.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import train_test_split

from pytest_mlebench.definition import load_competition, load_prepare
from pytest_mlebench.kaggle import extract_archives
from tests.full.shapes import load_shapes

COMPETITIONS = Path(__file__).resolve().parents[2] / "competitions"
SHAPES = load_shapes()


def _raw(competition_id: str, root: Path) -> Path:
    download, raw = root / "download", root / "raw"
    download.mkdir()
    SHAPES[competition_id].make_download(download, np.random.default_rng(0))
    extract_archives(download, raw)
    for name in ("public", "private"):
        (root / name).mkdir()
    return raw


@pytest.mark.parametrize("chunk_rows", [7, 1_000])
def test_facebook_chunks_hold_out_the_whole_table_split(tmp_path: Path, chunk_rows: int) -> None:
    competition_id = "facebook-recruiting-iii-keyword-extraction"
    raw = _raw(competition_id, tmp_path)
    prepare = load_prepare(load_competition(COMPETITIONS / competition_id, leaderboard=False))
    prepare.__globals__["CHUNK_ROWS"], saved = chunk_rows, prepare.__globals__["CHUNK_ROWS"]
    try:
        prepare(raw, tmp_path / "public", tmp_path / "private")
    finally:
        prepare.__globals__["CHUNK_ROWS"] = saved
    whole = pd.read_csv(raw / "Train.csv", dtype=str, keep_default_na=False)
    train, test = train_test_split(whole, test_size=0.1, random_state=0)
    answers = pd.read_csv(tmp_path / "private" / "answers.csv", dtype=str, keep_default_na=False)
    assert answers["Id"].tolist() == test["Id"].tolist()  # the same rows, in the split's order
    assert answers["Tags"].tolist() == test["Tags"].tolist()
    public = pd.read_csv(tmp_path / "public" / "train.csv", dtype=str, keep_default_na=False)
    assert sorted(public["Id"]) == sorted(train["Id"])


def test_tf2qa_blocks_hold_out_each_blocks_own_split(tmp_path: Path) -> None:
    competition_id = "tensorflow2-question-answering"
    raw = _raw(competition_id, tmp_path)
    load_prepare(load_competition(COMPETITIONS / competition_id, leaderboard=False))(
        raw, tmp_path / "public", tmp_path / "private"
    )
    records = [json.loads(line) for line in (raw / "simplified-nq-train.jsonl").open()]
    assert len(records) > 1_000  # the shape spans two blocks
    expected = []
    for start in range(0, len(records), 1_000):
        block = pd.DataFrame(records[start : start + 1_000])
        expected += train_test_split(block, test_size=0.1, random_state=0)[1]["example_id"].tolist()
    answers = pd.read_csv(tmp_path / "private" / "answers.csv", dtype=str, keep_default_na=False)
    assert answers["example_id"].tolist() == [
        f"{example}_{part}" for example in expected for part in ("long", "short")
    ]
