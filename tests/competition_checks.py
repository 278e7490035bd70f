"""The checks the Lite and the Medium/High Kaggle-shaped competition tests share.

``tests/lite/test_lite.py`` and ``tests/full/test_full_competitions.py`` each keep their own list
of competitions, their own test names and what differs between the two (the id or group split, the
public tables, an empty cell read as text); the checks that are the same logic over either list of
competitions live here, each taking one prepared competition (``tests/lite/harness.py``).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pytest_mlebench import graders
from pytest_mlebench.definition import load_competition, load_prepare
from pytest_mlebench.errors import PrepareError
from pytest_mlebench.medals import medal_for
from tests.lite.harness import (
    PreparedLite,
    checksums,
    is_better,
    leak_probe,
    perfect,
    prepare_from_shape,
    score,
)

BROKEN_KINDS = ["missing id", "wrong id", "NaN", "renamed"]
"""The broken submissions of :func:`broken_submission`."""


def check_preparing_twice_gives_identical_files(prepared: PreparedLite, tmp_path: Path) -> None:
    """Preparing the same download again writes byte-identical public and private files."""
    again = prepare_from_shape(prepared.competition, prepared.shape, tmp_path)
    assert checksums(prepared.public) == checksums(again.public)
    assert checksums(prepared.private) == checksums(again.private)


def check_train_and_test_ids_are_disjoint(prepared: PreparedLite) -> None:
    """The public training labels and the private answers share no id, and neither is empty."""
    id_column = prepared.spec.id_column
    train_labels = prepared.shape.public_train_labels(prepared.public)
    test_ids = set(prepared.read_answers()[id_column])
    assert len(train_labels) > 0 and test_ids
    assert not set(train_labels[id_column].astype(str)) & test_ids


def answer_columns(prepared: PreparedLite) -> set[str]:
    """The columns that carry answers: targets and the extra answer columns, less what the shape
    names as public features (``FEATURE_COLUMNS``, a column that is both)."""
    spec = prepared.spec
    features = set(getattr(prepared.shape, "FEATURE_COLUMNS", ()))
    return (set(spec.target_columns) | set(spec.resolved_answer_columns)) - features


def check_public_tables_hold_no_answers(
    prepared: PreparedLite,
    headers: dict[str, list[str]],
    groups: tuple[set[str], set[str]] | None = None,
) -> None:
    """No public table keeps a leak column, nor an answer column beside a test row.

    ``headers`` maps each public table's name to its columns. A CSV holds test rows when it holds
    a test id, or, where the split is by group (``groups``: train and test group values, the
    shape's ``GROUP_COLUMN``), a test group; a parquet or JSON table holds them when its name says
    ``test``. ``answers.csv`` must not be public at all.
    """
    spec = prepared.spec
    answers = answer_columns(prepared)
    leaks = set(getattr(prepared.shape, "LEAK_COLUMNS", ()))
    group_column = getattr(prepared.shape, "GROUP_COLUMN", None)
    test_ids = set(prepared.read_answers()[spec.id_column])
    assert not (prepared.public / "answers.csv").exists()
    for name, header in headers.items():
        assert not leaks & set(header), f"{name} keeps leak columns {sorted(leaks & set(header))}"
        if name == "sample_submission.csv":
            continue
        if name.endswith((".parquet", ".json")):  # these tables hold test rows by file name
            if "test" in name:
                assert not answers & set(header), f"{name} holds test rows with answers"
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
            assert not answers & set(header), f"{name} holds test rows with answers"


def check_sample_submission_earns_no_medal(
    prepared: PreparedLite, tmp_path: Path, *, require_leaderboard: bool
) -> None:
    """The sample submission is valid and, against the shipped leaderboard, earns no medal.

    With ``require_leaderboard`` a competition without a leaderboard fails; without it, such a
    competition only checks validity.
    """
    result = score(prepared, prepared.read_sample(), tmp_path / "sample.csv")
    assert result.valid, result.reason
    assert result.score is not None
    competition = prepared.competition
    if require_leaderboard:
        assert competition.leaderboard_scores, f"{competition.id} ships no leaderboard"
    if competition.leaderboard_scores:
        award = medal_for(result.score, competition.thresholds)
        assert award.medal is None and not award.above_median


def check_answers_earn_gold(prepared: PreparedLite, tmp_path: Path) -> None:
    """The answers themselves, submitted, are valid and earn gold on the shipped leaderboard."""
    result = score(prepared, perfect(prepared), tmp_path / "perfect.csv")
    assert result.valid, result.reason
    assert result.score is not None
    competition = prepared.competition
    assert competition.leaderboard_scores, f"{competition.id} ships no leaderboard"
    assert medal_for(result.score, competition.thresholds).medal == "gold"


def check_shuffled_rows_and_reordered_columns_keep_the_score(
    prepared: PreparedLite, tmp_path: Path
) -> None:
    """A half-right submission scores the same with its rows shuffled and columns reversed."""
    spec = prepared.spec
    targets = list(spec.target_columns)
    keys = list(spec.id_columns)  # the id, or the columns of a composite key
    sample = prepared.read_sample().set_index(keys)[targets]
    mixed = perfect(prepared).set_index(keys)
    rows = mixed.index[::2]  # half right, half the sample's values: a score in the middle
    mixed.loc[rows, targets] = sample.loc[rows, targets]
    ordered = mixed.reset_index()
    shuffled = ordered.sample(frac=1.0, random_state=np.random.RandomState(7))
    shuffled = shuffled[list(reversed(shuffled.columns))]
    first = score(prepared, ordered, tmp_path / "ordered.csv")
    second = score(prepared, shuffled, tmp_path / "shuffled.csv")
    assert first.valid and second.valid, (first.reason, second.reason)
    assert first.score == pytest.approx(second.score, rel=1e-12, abs=1e-12)


def broken_submission(prepared: PreparedLite, kind: str) -> pd.DataFrame:
    """The sample submission broken one way (one of :data:`BROKEN_KINDS`)."""
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


def check_broken_submission_is_invalid(kind: str, result: graders.ScoreResult) -> None:
    """A broken submission's grade is invalid, with a reason and no score."""
    assert not result.valid, f"{kind}: accepted with score {result.score}"
    assert result.reason and result.score is None


def check_metadata_alone_does_not_reach_the_middle(prepared: PreparedLite, tmp_path: Path) -> None:
    """A nearest-neighbour model of ids, order, file names and sizes stays below the midpoint
    between the sample submission's score and a perfect score."""
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


def check_an_empty_download_is_a_clear_error(competition_folder: Path, tmp_path: Path) -> None:
    """Preparing from an empty download raises a ``PrepareError`` naming the raw folder."""
    prepare = load_prepare(load_competition(competition_folder))
    folders = [tmp_path / name for name in ("raw", "public", "private")]
    for folder in folders:
        folder.mkdir()
    # A PrepareError (never a traceback) that points at the raw folder the download should fill.
    with pytest.raises(PrepareError, match=re.escape(str(folders[0]))):
        prepare(*folders)
