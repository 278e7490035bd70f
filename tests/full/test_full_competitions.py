"""The Medium and High competitions on Kaggle-shaped files: prepare invariants, grading, leaks.

For every competition with a shape module in ``tests/full/shapes/``, the shape writes what
Kaggle's download holds (tiny synthetic content), the competition's own ``prepare.py`` turns it
into ``public/`` and ``private/``, and then, as for Lite (``tests/lite/test_lite.py``):

* train and test share no id, or no group where the split is by group (breath, molecule,
  patient), no public file holds an answer or a leak column for a test row, and preparing twice
  gives identical files;
* the sample submission is valid and earns no medal; the answers earn gold against the shipped
  leaderboard; shuffled rows and reordered columns change nothing;
* a missing id, a wrong id, a NaN and a wrong column name are each invalid with a reason;
* a nearest-neighbour model of ids, order, file names and sizes stays below the midpoint between
  the sample submission's score and a perfect score;
* an empty download is a ``PrepareError`` naming the raw folder.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pandas as pd
import pyarrow.parquet as pq
import pytest

from pytest_mlebench.definition import load_competition
from tests import competition_checks as checks
from tests.full.shapes import load_shapes
from tests.lite.harness import (
    PreparedLite,
    is_better,
    prepare_from_shape,
    public_csv_headers,
    score,
)

ROOT = Path(__file__).resolve().parents[2]
COMPETITIONS = ROOT / "competitions"
SHAPES: dict[str, ModuleType] = load_shapes()
IDS = sorted(SHAPES)


@pytest.fixture(scope="module", params=IDS)
def prepared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> PreparedLite:
    competition = load_competition(COMPETITIONS / request.param)
    return prepare_from_shape(
        competition, SHAPES[request.param], tmp_path_factory.mktemp(request.param)
    )


def _table_headers(public: Path) -> dict[str, list[str]]:
    """The column names of the parquet tables and JSON-lines record files at ``public``'s top.

    A JSON document that is not JSON lines (a COCO-style annotation file) is not a table; its
    competition's own test checks it.
    """
    headers = {path.name: list(pq.read_schema(path).names) for path in public.glob("*.parquet")}
    for path in public.glob("*.json"):
        try:
            records = pd.read_json(path, lines=True)
        except ValueError:
            continue
        headers[path.name] = [str(column) for column in records.columns]
    return headers


def _groups(prepared: PreparedLite) -> tuple[set[str], set[str]] | None:
    """Train and test group values, for a shape whose split keeps groups apart."""
    shape = prepared.shape
    if hasattr(shape, "group_values"):
        train, test = shape.group_values(prepared.public)
        return set(map(str, train)), set(map(str, test))
    column = getattr(shape, "GROUP_COLUMN", None)
    if column is None:
        return None
    read = [
        set(pd.read_csv(prepared.public / name, usecols=[column], dtype=str)[column])
        for name in ("train.csv", "test.csv")
    ]
    return read[0], read[1]


@pytest.mark.parametrize("competition_id", IDS)
def test_every_full_competition_is_a_medium_or_high_kaggle_competition(
    competition_id: str,
) -> None:
    competition = load_competition(COMPETITIONS / competition_id)
    assert competition.source == "kaggle"
    assert competition.complexity in ("medium", "high")


def test_preparing_twice_gives_identical_files(prepared: PreparedLite, tmp_path: Path) -> None:
    checks.check_preparing_twice_gives_identical_files(prepared, tmp_path)


def test_train_and_test_are_disjoint(prepared: PreparedLite) -> None:
    groups = _groups(prepared)
    if groups is not None:
        train, test = groups
        assert train and test
        assert not train & test
        return
    checks.check_train_and_test_ids_are_disjoint(prepared)


def test_public_files_hold_no_answers_or_leaks(prepared: PreparedLite) -> None:
    headers = public_csv_headers(prepared.public) | _table_headers(prepared.public)
    checks.check_public_tables_hold_no_answers(prepared, headers, _groups(prepared))


def test_sample_submission_is_valid_and_earns_no_medal(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    checks.check_sample_submission_earns_no_medal(prepared, tmp_path, require_leaderboard=True)


def test_answers_earn_gold(prepared: PreparedLite, tmp_path: Path) -> None:
    checks.check_answers_earn_gold(prepared, tmp_path)


def test_shuffled_rows_and_reordered_columns_keep_the_score(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    checks.check_shuffled_rows_and_reordered_columns_keep_the_score(prepared, tmp_path)


@pytest.mark.parametrize("kind", checks.BROKEN_KINDS)
def test_broken_submission_is_invalid_with_a_reason(
    prepared: PreparedLite, kind: str, tmp_path: Path
) -> None:
    result = score(prepared, checks.broken_submission(prepared, kind), tmp_path / "broken.csv")
    if kind == "NaN" and getattr(prepared.shape, "EMPTY_CELL_IS_TEXT", False):
        # CSV has no NaN: the cell is written empty, which is a valid text answer here (an empty
        # span, label set or ranking). A ranking that predicts nothing scores no better than the
        # sample's row did; under micro F1 an empty label set may even raise the score.
        assert result.valid, result.reason
        assert result.score is not None
        if prepared.competition.metric.startswith("map-at-"):
            sample = score(prepared, prepared.read_sample(), tmp_path / "sample.csv")
            assert sample.score is not None
            assert not is_better(result.score, sample.score, prepared.competition.lower_is_better)
        return
    checks.check_broken_submission_is_invalid(kind, result)


def test_metadata_alone_does_not_reach_the_middle(prepared: PreparedLite, tmp_path: Path) -> None:
    checks.check_metadata_alone_does_not_reach_the_middle(prepared, tmp_path)


@pytest.mark.parametrize("competition_id", IDS)
def test_an_empty_download_is_a_clear_error(competition_id: str, tmp_path: Path) -> None:
    checks.check_an_empty_download_is_a_clear_error(COMPETITIONS / competition_id, tmp_path)
