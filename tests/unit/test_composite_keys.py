"""Rows keyed by several columns (``key_columns``) and rows paired by position inside an id.

A composite key is matched exactly, each part as stripped text, in any row order; every way a
submission's keys can fail to pair one to one is invalid with a reason naming the key's columns,
one example and the fix. ``pair_repeated_ids`` pairs the k-th row of an id with the k-th answer
row of that id (the original MLE-bench's smartphone-decimeter-2022 pairing).
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.graders import GraderError, SubmissionSpec, score_submission
from pytest_mlebench.graders.validation import check_spec
from pytest_mlebench.original import parse_original_grader

SPEC = SubmissionSpec(id_column="trip", key_columns=("t",), target_columns=("y",), metric="mae")
ANSWERS = pd.DataFrame(
    {"trip": ["a", "a", "a", "b", "b"], "t": ["1", "2", "3", "1", "2"], "y": [1, 2, 3, 4, 5]}
)


def _score(submission: pd.DataFrame, tmp_path: Path, spec: SubmissionSpec = SPEC, answers=ANSWERS):
    answers.to_csv(tmp_path / "answers.csv", index=False)
    submission.to_csv(tmp_path / "submission.csv", index=False)
    return score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", spec)


def _reason(submission: pd.DataFrame, tmp_path: Path) -> str:
    result = _score(submission, tmp_path)
    assert not result.valid and result.score is None
    assert result.reason is not None
    return result.reason


def test_rows_pair_by_the_whole_key_in_any_order(tmp_path: Path) -> None:
    submission = ANSWERS.assign(y=[1, 2, 3, 4, 7])  # one error of 2 on ('b', '2')
    shuffled = submission.iloc[[4, 0, 3, 2, 1]][["y", "t", "trip"]]
    assert _score(submission, tmp_path).score == pytest.approx(0.4)
    assert _score(shuffled, tmp_path).score == pytest.approx(0.4)


def test_each_part_compares_as_stripped_text(tmp_path: Path) -> None:
    spaced = ANSWERS.assign(trip=[" a", "a ", "a", "b", " b "], t=["1 ", "2", " 3", "1", "2"])
    assert _score(spaced, tmp_path).score == 0.0


def test_a_duplicate_pair_is_named(tmp_path: Path) -> None:
    reason = _reason(pd.concat([ANSWERS, ANSWERS.iloc[[1]]]), tmp_path)
    assert reason.startswith("duplicate (trip, t) pair ('a', '2') (2 times)")
    assert "each (trip, t) pair must appear once" in reason


def test_a_missing_pair_is_named(tmp_path: Path) -> None:
    reason = _reason(ANSWERS.drop(index=2), tmp_path)
    assert reason.startswith("1 (trip, t) pair of the test set is missing, e.g. ('a', '3')")


def test_a_timestamp_the_trip_does_not_have_is_named_with_the_fix(tmp_path: Path) -> None:
    reason = _reason(ANSWERS.assign(t=["1", "2", "4", "1", "2"]), tmp_path)
    assert reason.startswith("1 (trip, t) pair is not in the test set, e.g. ('a', '4')")
    assert "(1 test (trip, t) pair is missing)" in reason
    assert "trip 'a' is in the test set, but has no row at t '4'" in reason
    assert "never by position" in reason


def test_an_unknown_trip_is_named(tmp_path: Path) -> None:
    reason = _reason(ANSWERS.assign(trip=["a", "a", "a", "b", "c"]), tmp_path)
    assert "e.g. ('c', '2')" in reason and "trip 'c' is not in the test set" in reason


@pytest.mark.parametrize("written", ["2.0", "2.000", "2e0", "0.2E1"])
def test_a_timestamp_written_as_a_float_says_how_to_fix_it(written: str, tmp_path: Path) -> None:
    submission = ANSWERS.assign(t=["1", written, "3", "1", "2"])
    reason = _reason(submission, tmp_path)
    assert f"t is written as a float ('{written}' for '2')" in reason
    assert "write it as a whole number" in reason and ".astype('int64')" in reason


def test_a_fractional_timestamp_is_not_taken_for_a_float_written_integer(tmp_path: Path) -> None:
    reason = _reason(ANSWERS.assign(t=["1", "2.5", "3", "1", "2"]), tmp_path)
    assert "written as a float" not in reason and "has no row at t '2.5'" in reason


def test_a_part_holding_the_separator_never_matches(tmp_path: Path) -> None:
    # joined naively, ('a\x1f2', '') and ('a', '2\x1f') would read as an answer key's 'a', '2'
    reason = _reason(
        ANSWERS.assign(trip=["a", "a\x1f2", "a", "b", "b"], t=["1", "", "3", "1", "2"]), tmp_path
    )
    assert "not in the test set" in reason


def test_answers_holding_the_separator_or_repeating_a_pair_are_the_competitions_fault(
    tmp_path: Path,
) -> None:
    with pytest.raises(GraderError, match="U\\+001F"):
        _score(ANSWERS, tmp_path, answers=ANSWERS.assign(t=["1", "2", "3\x1f", "1", "2"]))
    with pytest.raises(GraderError, match=r"repeat the \(trip, t\) pair \('a', '2'\)"):
        _score(ANSWERS, tmp_path, answers=ANSWERS.assign(t=["1", "2", "2", "1", "2"]))


def test_value_reasons_show_the_key_columns_of_the_row(tmp_path: Path) -> None:
    submission = ANSWERS.assign(y=["1", "2", "x", "4", "5"])
    assert "e.g. 'x' at id 'a 3'" in _reason(submission, tmp_path)


def test_a_missing_key_column_is_named(tmp_path: Path) -> None:
    reason = _reason(ANSWERS.drop(columns=["t"]), tmp_path)
    assert reason.startswith("missing column 't'; expected columns: trip, t, y")


def test_key_columns_must_be_distinct_from_targets_and_answers() -> None:
    with pytest.raises(GraderError, match="distinct"):
        check_spec(
            SubmissionSpec(
                id_column="trip", key_columns=("y",), target_columns=("y",), metric="mae"
            )
        )
    with pytest.raises(GraderError, match="distinct"):
        check_spec(
            SubmissionSpec(
                id_column="trip", key_columns=("t",), target_columns=("y",), metric="mae",
                answer_columns=("t",),
            )
        )  # fmt: skip


POSITIONAL = SubmissionSpec(
    id_column="trip",
    target_columns=("y",),
    metric="mae",
    extra_columns="ignore",
    pair_repeated_ids=True,
)


def test_pairing_by_position_inside_an_id_ignores_every_other_column(tmp_path: Path) -> None:
    # rows of 'a' reversed: the k-th row of 'a' meets the k-th answer of 'a' whatever its t
    reversed_a = ANSWERS.iloc[[2, 1, 0, 3, 4]].assign(t="whatever")
    result = _score(reversed_a, tmp_path, POSITIONAL)
    assert result.valid and result.score == pytest.approx((2 + 0 + 2 + 0 + 0) / 5)
    assert _score(reversed_a, tmp_path).valid is False  # our key would not even match


def test_pairing_by_position_needs_every_ids_row_count(tmp_path: Path) -> None:
    result = _score(ANSWERS.drop(index=4), tmp_path, POSITIONAL)
    assert not result.valid
    assert result.reason == (
        "trip 'b' has 1 row in the submission and 2 in the test set; rows of one trip are "
        "paired by their order"
    )
    foreign = _score(ANSWERS.assign(trip=["a", "a", "a", "b", "z"]), tmp_path, POSITIONAL)
    assert foreign.reason == "trip 'z' is not in the test set"


def test_the_original_grader_may_pair_by_position() -> None:
    section = {"metric": "mae", "pairing": "position", "text": "rows paired by position"}
    grader = parse_original_grader(section, SPEC, Path("c/config.yaml"))
    assert grader is not None
    assert grader.spec.pair_repeated_ids and grader.spec.key_columns == ()
    assert grader.spec.extra_columns == "ignore"
    assert grader.name == "mae over 1 column, rows paired by position"
    keyed = parse_original_grader({**section, "pairing": "key"}, SPEC, Path("c/config.yaml"))
    assert keyed is not None and keyed.spec.key_columns == ("t",)
    with pytest.raises(ConfigError, match="pairing must be one of key, position"):
        parse_original_grader({**section, "pairing": "order"}, SPEC, Path("c/config.yaml"))
