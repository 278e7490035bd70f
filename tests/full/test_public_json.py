"""Public JSON tables of the Medium and High competitions hold no answers for test records.

``tests/full/test_full_competitions.py`` checks the public CSV files; a competition whose data is
JSON records (statoil-iceberg-classifier-challenge's ``train.json`` / ``test.json``) is checked
here the same way: no record of a test id carries an answer field or a leak field.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.definition import load_competition
from tests.full.shapes import load_shapes
from tests.lite.harness import PreparedLite, prepare_from_shape, public_json_records

COMPETITIONS = Path(__file__).resolve().parents[2] / "competitions"
SHAPES = load_shapes()
WITH_JSON = sorted(cid for cid, shape in SHAPES.items() if getattr(shape, "PUBLIC_JSON", False))


@pytest.fixture(scope="module", params=WITH_JSON)
def prepared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> PreparedLite:
    competition = load_competition(COMPETITIONS / request.param)
    return prepare_from_shape(
        competition, SHAPES[request.param], tmp_path_factory.mktemp(request.param)
    )


def test_public_json_records_hold_no_answers_for_test_ids(prepared: PreparedLite) -> None:
    spec = prepared.spec
    answer_fields = set(spec.target_columns) | set(spec.resolved_answer_columns)
    leaks = set(getattr(prepared.shape, "LEAK_COLUMNS", ()))
    test_ids = set(prepared.read_answers()[spec.id_column])
    tables = public_json_records(prepared.public)
    assert tables, "the shape says PUBLIC_JSON but public/ holds no JSON record table"
    seen_test_ids: set[str] = set()
    for name, records in tables.items():
        fields = set().union(*map(set, records))
        assert not leaks & fields, f"{name} keeps leak fields {sorted(leaks & fields)}"
        ids = {str(record.get(spec.id_column)) for record in records}
        if ids & test_ids:
            seen_test_ids |= ids & test_ids
            assert not answer_fields & fields, f"{name} holds test records with answers"
    assert seen_test_ids == test_ids, "every test id has its record in a public JSON file"
