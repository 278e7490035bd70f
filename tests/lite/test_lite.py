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

import re
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd
import pytest

from pytest_mlebench.definition import load_competition, load_prepare
from pytest_mlebench.errors import PrepareError
from pytest_mlebench.medals import medal_for
from pytest_mlebench.registry import read_id_list
from tests.lite.harness import (
    PreparedLite,
    checksums,
    is_better,
    leak_probe,
    perfect,
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
    again = prepare_from_shape(prepared.competition, prepared.shape, tmp_path)
    assert checksums(prepared.public) == checksums(again.public)
    assert checksums(prepared.private) == checksums(again.private)


def test_train_and_test_ids_are_disjoint(prepared: PreparedLite) -> None:
    id_column = prepared.spec.id_column
    train = prepared.shape.public_train_labels(prepared.public)
    test_ids = set(prepared.read_answers()[id_column])
    assert len(train) > 0 and test_ids
    assert not set(train[id_column].astype(str)) & test_ids


def test_public_files_hold_no_answers_or_leaks(prepared: PreparedLite) -> None:
    spec = prepared.spec
    answer_columns = set(spec.target_columns) | set(spec.resolved_answer_columns)
    leaks = set(getattr(prepared.shape, "LEAK_COLUMNS", ()))
    test_ids = set(prepared.read_answers()[spec.id_column])
    assert not (prepared.public / "answers.csv").exists()
    for name, header in public_csv_headers(prepared.public).items():
        assert not leaks & set(header), f"{name} keeps leak columns {sorted(leaks & set(header))}"
        if name == "sample_submission.csv" or spec.id_column not in header:
            continue
        ids = set(
            pd.read_csv(prepared.public / name, usecols=[spec.id_column], dtype=str)[spec.id_column]
        )
        if ids & test_ids:
            assert not answer_columns & set(header), f"{name} holds test rows with answers"
    for name, records in public_json_records(prepared.public).items():
        fields = set().union(*map(set, records))
        assert not leaks & fields, f"{name} keeps leak fields {sorted(leaks & fields)}"
        if {str(r.get(spec.id_column)) for r in records} & test_ids:
            assert not answer_columns & fields, f"{name} holds test records with answers"


def test_sample_submission_is_valid_and_earns_no_medal(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    result = score(prepared, prepared.read_sample(), tmp_path / "sample.csv")
    assert result.valid, result.reason
    assert result.score is not None
    competition = prepared.competition
    if competition.leaderboard_scores:
        award = medal_for(result.score, competition.thresholds)
        assert award.medal is None and not award.above_median


def test_answers_earn_gold(prepared: PreparedLite, tmp_path: Path) -> None:
    result = score(prepared, perfect(prepared), tmp_path / "perfect.csv")
    assert result.valid, result.reason
    assert result.score is not None
    competition = prepared.competition
    assert competition.leaderboard_scores, f"{competition.id} ships no leaderboard"
    assert medal_for(result.score, competition.thresholds).medal == "gold"


def test_shuffled_rows_and_reordered_columns_keep_the_score(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    spec = prepared.spec
    sample = prepared.read_sample().set_index(spec.id_column)
    mixed = perfect(prepared).set_index(spec.id_column)
    rows = mixed.index[::2]  # half right, half the sample's values: a score in the middle
    mixed.loc[rows, list(spec.target_columns)] = sample.loc[rows, list(spec.target_columns)]
    ordered = mixed.reset_index()
    rng = np.random.RandomState(7)
    shuffled = ordered.sample(frac=1.0, random_state=rng)
    shuffled = shuffled[list(reversed(shuffled.columns))]
    first = score(prepared, ordered, tmp_path / "ordered.csv")
    second = score(prepared, shuffled, tmp_path / "shuffled.csv")
    assert first.valid and second.valid, (first.reason, second.reason)
    assert first.score == pytest.approx(second.score, rel=1e-12, abs=1e-12)


def _broken_submissions(prepared: PreparedLite) -> dict[str, pd.DataFrame]:
    spec = prepared.spec
    sample = prepared.read_sample()
    wrong_id = sample.copy()
    wrong_id.loc[0, spec.id_column] = "not-an-id-of-this-competition"
    with_nan = sample.copy()
    with_nan[spec.target_columns[0]] = with_nan[spec.target_columns[0]].astype(object)
    with_nan.loc[0, spec.target_columns[0]] = np.nan
    renamed = sample.rename(columns={spec.target_columns[0]: "prediction_of_something_else"})
    return {
        "missing id": sample.iloc[1:],
        "wrong id": wrong_id,
        "NaN": with_nan,
        "renamed": renamed,
    }


@pytest.mark.parametrize("kind", ["missing id", "wrong id", "NaN", "renamed"])
def test_broken_submission_is_invalid_with_a_reason(
    prepared: PreparedLite, kind: str, tmp_path: Path
) -> None:
    result = score(prepared, _broken_submissions(prepared)[kind], tmp_path / "broken.csv")
    if kind == "NaN" and getattr(prepared.shape, "EMPTY_CELL_IS_TEXT", False):
        # CSV has no NaN: the cell is written empty, and the empty string is a text answer here
        # (compared literally, like "NA" or "null"), so it is a wrong answer, not a missing one.
        sample = score(prepared, prepared.read_sample(), tmp_path / "sample.csv")
        assert result.valid, result.reason
        assert result.score is not None and sample.score is not None
        assert result.score <= sample.score
        return
    assert not result.valid, f"{kind}: accepted with score {result.score}"
    assert result.reason and result.score is None


def test_metadata_alone_does_not_reach_the_middle(prepared: PreparedLite, tmp_path: Path) -> None:
    lower = prepared.competition.lower_is_better
    baseline = score(prepared, prepared.read_sample(), tmp_path / "sample.csv").score
    best = score(prepared, perfect(prepared), tmp_path / "perfect.csv").score
    probe = score(prepared, leak_probe(prepared), tmp_path / "probe.csv")
    assert baseline is not None and best is not None
    assert probe.valid, probe.reason
    assert probe.score is not None
    middle = (baseline + best) / 2
    assert not is_better(probe.score, middle, lower), (
        f"a model of ids, order and file names scores {probe.score:.4g}, past the midpoint "
        f"{middle:.4g} between the sample ({baseline:.4g}) and perfect ({best:.4g}): "
        "prepare leaks the answers through names or order"
    )


@pytest.mark.parametrize("competition_id", DEFINED)
def test_an_empty_download_is_a_clear_error(competition_id: str, tmp_path: Path) -> None:
    prepare = load_prepare(load_competition(COMPETITIONS / competition_id))
    folders = [tmp_path / name for name in ("raw", "public", "private")]
    for folder in folders:
        folder.mkdir()
    # A PrepareError (never a traceback) that points at the raw folder the download should fill.
    with pytest.raises(PrepareError, match=re.escape(str(folders[0]))):
        prepare(*folders)
