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

import re
from pathlib import Path
from types import ModuleType

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from pytest_mlebench.definition import load_competition, load_prepare
from pytest_mlebench.errors import PrepareError
from pytest_mlebench.medals import medal_for
from tests.full.shapes import load_shapes
from tests.lite.harness import (
    PreparedLite,
    checksums,
    is_better,
    leak_probe,
    perfect,
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
    again = prepare_from_shape(prepared.competition, prepared.shape, tmp_path)
    assert checksums(prepared.public) == checksums(again.public)
    assert checksums(prepared.private) == checksums(again.private)


def test_train_and_test_are_disjoint(prepared: PreparedLite) -> None:
    groups = _groups(prepared)
    if groups is not None:
        train, test = groups
        assert train and test
        assert not train & test
        return
    id_column = prepared.spec.id_column
    train_labels = prepared.shape.public_train_labels(prepared.public)
    test_ids = set(prepared.read_answers()[id_column])
    assert len(train_labels) > 0 and test_ids
    assert not set(train_labels[id_column].astype(str)) & test_ids


def test_public_files_hold_no_answers_or_leaks(prepared: PreparedLite) -> None:
    spec = prepared.spec
    features = set(getattr(prepared.shape, "FEATURE_COLUMNS", ()))
    answer_columns = (set(spec.target_columns) | set(spec.resolved_answer_columns)) - features
    leaks = set(getattr(prepared.shape, "LEAK_COLUMNS", ()))
    groups = _groups(prepared)
    group_column = getattr(prepared.shape, "GROUP_COLUMN", None)
    test_ids = set(prepared.read_answers()[spec.id_column])
    assert not (prepared.public / "answers.csv").exists()
    headers = public_csv_headers(prepared.public) | _table_headers(prepared.public)
    for name, header in headers.items():
        assert not leaks & set(header), f"{name} keeps leak columns {sorted(leaks & set(header))}"
        if name == "sample_submission.csv":
            continue
        if name.endswith((".parquet", ".json")):  # these tables hold test rows by file name
            if "test" in name:
                assert not answer_columns & set(header), f"{name} holds test rows with answers"
            continue
        if groups is not None and group_column in header:
            values = pd.read_csv(prepared.public / name, usecols=[group_column], dtype=str)
            holds_test_rows = bool(set(values[group_column]) & groups[1])
        elif spec.id_column in header and groups is None:
            values = pd.read_csv(prepared.public / name, usecols=[spec.id_column], dtype=str)
            holds_test_rows = bool(set(values[spec.id_column]) & test_ids)
        else:
            continue
        if holds_test_rows:
            assert not answer_columns & set(header), f"{name} holds test rows with answers"


def test_sample_submission_is_valid_and_earns_no_medal(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    result = score(prepared, prepared.read_sample(), tmp_path / "sample.csv")
    assert result.valid, result.reason
    assert result.score is not None
    competition = prepared.competition
    assert competition.leaderboard_scores, f"{competition.id} ships no leaderboard"
    award = medal_for(result.score, competition.thresholds)
    assert award.medal is None and not award.above_median


def test_answers_earn_gold(prepared: PreparedLite, tmp_path: Path) -> None:
    result = score(prepared, perfect(prepared), tmp_path / "perfect.csv")
    assert result.valid, result.reason
    assert result.score is not None
    assert medal_for(result.score, prepared.competition.thresholds).medal == "gold"


def test_shuffled_rows_and_reordered_columns_keep_the_score(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    spec = prepared.spec
    targets = list(spec.target_columns)
    sample = prepared.read_sample().set_index(spec.id_column)[targets]
    mixed = perfect(prepared).set_index(spec.id_column)
    rows = mixed.index[::2]  # half right, half the sample's values: a score in the middle
    mixed.loc[rows, targets] = sample.loc[rows, targets]
    ordered = mixed.reset_index()
    shuffled = ordered.sample(frac=1.0, random_state=np.random.RandomState(7))
    shuffled = shuffled[list(reversed(shuffled.columns))]
    first = score(prepared, ordered, tmp_path / "ordered.csv")
    second = score(prepared, shuffled, tmp_path / "shuffled.csv")
    assert first.valid and second.valid, (first.reason, second.reason)
    assert first.score == pytest.approx(second.score, rel=1e-12, abs=1e-12)


def _broken(prepared: PreparedLite, kind: str) -> pd.DataFrame:
    spec = prepared.spec
    sample = prepared.read_sample()
    target = spec.target_columns[0]
    if kind == "missing id":
        return sample.iloc[1:]
    if kind == "wrong id":
        sample.loc[0, spec.id_column] = "not-an-id-of-this-competition"
    elif kind == "NaN":
        sample[target] = sample[target].astype(object)
        sample.loc[0, target] = np.nan
    else:
        sample = sample.rename(columns={target: "prediction_of_something_else"})
    return sample


@pytest.mark.parametrize("kind", ["missing id", "wrong id", "NaN", "renamed"])
def test_broken_submission_is_invalid_with_a_reason(
    prepared: PreparedLite, kind: str, tmp_path: Path
) -> None:
    result = score(prepared, _broken(prepared, kind), tmp_path / "broken.csv")
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
        f"{middle:.4g} between the sample ({baseline:.4g}) and perfect ({best:.4g})"
    )


@pytest.mark.parametrize("competition_id", IDS)
def test_an_empty_download_is_a_clear_error(competition_id: str, tmp_path: Path) -> None:
    prepare = load_prepare(load_competition(COMPETITIONS / competition_id))
    folders = [tmp_path / name for name in ("raw", "public", "private")]
    for folder in folders:
        folder.mkdir()
    with pytest.raises(PrepareError, match=re.escape(str(folders[0]))):
        prepare(*folders)
