"""The Lite competitions on Kaggle-shaped files: prepare invariants, grading, and a leak probe.

For every Lite competition with a folder, its shape module (``tests/lite/shapes/``) writes what
Kaggle's download holds, with tiny synthetic content; the competition's own ``prepare.py`` turns it
into ``public/`` and ``private/``; then:

* train and test ids are disjoint, no public file holds an answer column or a leak column, and
  preparing twice gives identical files;
* the sample submission is valid and earns no medal; the answers earn gold against the shipped
  leaderboard (all 22 ship the original's board); shuffled rows and reordered columns change
  nothing;
* a missing id, a wrong id, a NaN and a wrong column name are each invalid with a reason;
* a nearest-neighbour model that sees only ids, order, file names and sizes stays below the
  midpoint between the sample submission's score and a perfect score (a prepare that leaks through
  names or order fails here).
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from pytest_mlebench.definition import load_competition
from pytest_mlebench.registry import read_id_list
from tests import competition_checks as checks
from tests.lite.harness import (
    PreparedLite,
    prepare_from_shape,
    public_csv_headers,
    public_json_records,
    score,
)
from tests.lite.shapes import load_shapes

ROOT = Path(__file__).resolve().parents[2]
COMPETITIONS = ROOT / "competitions"
LITE = read_id_list(COMPETITIONS / "splits" / "lite.txt")
SHAPES = load_shapes()
DEFINED = [cid for cid in LITE if (COMPETITIONS / cid / "config.yaml").is_file()]


def _shape(competition_id: str) -> ModuleType:
    if competition_id not in SHAPES:
        pytest.fail(f"{competition_id} has a folder but no Kaggle shape in tests/lite/shapes/")
    return SHAPES[competition_id]


@pytest.fixture(scope="module", params=DEFINED)
def prepared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> PreparedLite:
    competition = load_competition(COMPETITIONS / request.param)
    return prepare_from_shape(
        competition, _shape(request.param), tmp_path_factory.mktemp(request.param)
    )


def test_every_defined_lite_competition_is_a_kaggle_competition() -> None:
    for competition_id in DEFINED:
        competition = load_competition(COMPETITIONS / competition_id)
        assert competition.source == "kaggle", competition_id
        assert competition.complexity == "low", competition_id


def test_preparing_twice_gives_identical_files(prepared: PreparedLite, tmp_path: Path) -> None:
    checks.check_preparing_twice_gives_identical_files(prepared, tmp_path)


def test_train_and_test_ids_are_disjoint(prepared: PreparedLite) -> None:
    checks.check_train_and_test_ids_are_disjoint(prepared)


def test_public_files_hold_no_answers_or_leaks(prepared: PreparedLite) -> None:
    checks.check_public_tables_hold_no_answers(prepared, public_csv_headers(prepared.public))
    answer_columns = checks.answer_columns(prepared)
    leaks = set(getattr(prepared.shape, "LEAK_COLUMNS", ()))
    id_column = prepared.spec.id_column
    test_ids = set(prepared.read_answers()[id_column])
    for name, records in public_json_records(prepared.public).items():
        fields = set().union(*map(set, records))
        assert not leaks & fields, f"{name} keeps leak fields {sorted(leaks & fields)}"
        if {str(r.get(id_column)) for r in records} & test_ids:
            assert not answer_columns & fields, f"{name} holds test records with answers"


def test_sample_submission_is_valid_and_earns_no_medal(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    checks.check_sample_submission_earns_no_medal(prepared, tmp_path, require_leaderboard=False)


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
        # CSV has no NaN: the cell is written empty, and the empty string is a text answer here
        # (compared literally, like "NA" or "null"), so it is a wrong answer, not a missing one.
        sample = score(prepared, prepared.read_sample(), tmp_path / "sample.csv")
        assert result.valid, result.reason
        assert result.score is not None and sample.score is not None
        assert result.score <= sample.score
        return
    checks.check_broken_submission_is_invalid(kind, result)


def test_metadata_alone_does_not_reach_the_middle(prepared: PreparedLite, tmp_path: Path) -> None:
    checks.check_metadata_alone_does_not_reach_the_middle(prepared, tmp_path)


@pytest.mark.parametrize("competition_id", DEFINED)
def test_an_empty_download_is_a_clear_error(competition_id: str, tmp_path: Path) -> None:
    checks.check_an_empty_download_is_a_clear_error(COMPETITIONS / competition_id, tmp_path)
