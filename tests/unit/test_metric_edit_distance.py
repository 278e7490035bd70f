"""The edit-distance metrics: hand-worked distances, token sequences, empty cells, whole files."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from pytest_mlebench.graders import (
    Columns,
    GraderError,
    SubmissionSpec,
    get_metric,
    score_submission,
)
from pytest_mlebench.graders.metrics.edit_distance import levenshtein_distances

MEAN = get_metric("mean-levenshtein")
RATE = get_metric("sequence-levenshtein-rate")


def _score(name: str, truth: list[str], pred: list[str]) -> float:
    return get_metric(name).compute(Columns.of({"t": truth}), Columns.of({"p": pred}))


@pytest.mark.parametrize(
    ("truth", "pred", "expected"),
    [
        pytest.param("kitten", "sitting", 3, id="kitten"),  # k→s, e→i, +g
        pytest.param("flaw", "lawn", 2, id="flaw"),  # −f, +n
        pytest.param("same", "same", 0, id="equal"),
        pytest.param("", "abc", 3, id="from-empty"),
        # H2O → CH4: +C, 2→4, −O; then h1H2 → h1H4: 2→4
        pytest.param("InChI=1S/H2O/h1H2", "InChI=1S/CH4/h1H4", 4, id="inchi"),
    ],
)
def test_character_distances_are_levenshtein(truth: str, pred: str, expected: int) -> None:
    assert levenshtein_distances([truth], [pred]).tolist() == [expected]


def test_token_sequences_count_tokens_not_characters() -> None:
    # "12" → "1 2" is one substitution and one insertion over tokens, not one character edit
    assert levenshtein_distances([["12", "3"]], [["1", "2", "3"]]).tolist() == [2]


def test_mean_levenshtein_averages_over_rows() -> None:
    # distances 3 (kitten/sitting) and 0 → mean 1.5
    assert _score("mean-levenshtein", ["kitten", "a b"], ["sitting", "a b"]) == 1.5


def test_sequence_rate_divides_by_true_tokens() -> None:
    # row 1: "1 2 3" vs "1 3" — one deletion; row 2: "4 5" vs "4 5 6" — one insertion.
    # Σ distance 2 over 5 true gestures = 0.4 (not the mean of per-row rates, 1/3·½ + ½·½)
    assert _score("sequence-levenshtein-rate", ["1 2 3", "4 5"], ["1 3", "4 5 6"]) == 0.4


def test_sequence_rate_of_numeric_looking_answers() -> None:
    # one gesture per row: the answers may be read as numbers; they stay token 7, 3
    truth = Columns.of({"t": np.array([7.0, 3.0])})
    assert RATE.compute(truth, Columns.of({"p": ["7", "3 3"]})) == 0.5


def test_sequence_rate_needs_true_tokens() -> None:
    with pytest.raises(GraderError, match="no tokens"):
        _score("sequence-levenshtein-rate", [" "], ["1"])


def test_unequal_lengths_are_a_grader_error() -> None:
    with pytest.raises(GraderError, match="2 answers for 1"):
        levenshtein_distances(["a", "b"], ["a"])


@pytest.mark.parametrize("name", ["mean-levenshtein", "sequence-levenshtein-rate"])
def test_an_empty_prediction_is_invalid_with_the_fix(name: str, tmp_path: Path) -> None:
    answers, submission = tmp_path / "answers.csv", tmp_path / "submission.csv"
    answers.write_text("id,text\n1,2 3\n2,4\n")
    submission.write_text('id,text\n1,2 3\n2,""\n')
    spec = SubmissionSpec(id_column="id", target_columns=("text",), metric=name)
    result = score_submission(submission, answers, spec)
    assert not result.valid and result.score is None
    assert result.reason is not None
    assert "1 empty value" in result.reason and "every row" in result.reason


def test_a_whole_file_scores_after_alignment(tmp_path: Path) -> None:
    answers, submission = tmp_path / "answers.csv", tmp_path / "submission.csv"
    answers.write_text('image_id,InChI\na,"InChI=1S/H2O/h1H2"\nb,"InChI=1S/CH4/h1H4"\n')
    submission.write_text('InChI,image_id\n"InChI=1S/CH4/h1H4",b\n"InChI=1S/H2O/h1H4",a\n')
    spec = SubmissionSpec(id_column="image_id", target_columns=("InChI",), metric=MEAN.name)
    result = score_submission(submission, answers, spec)
    assert result.valid, result.reason
    assert result.score == 0.5  # a: one substitution (2→4), b: exact


@pytest.mark.parametrize(
    ("cell", "token"), [("2 x 4", "'x'"), ("2.0 3.0", "'2.0'"), ("2 3,4", "'3,4'")]
)
def test_a_sequence_token_that_is_not_an_integer_is_refused(
    cell: str, token: str, tmp_path: Path
) -> None:
    # the original refuses the file; scored, a perfect file written with floats got the worst
    answers, submission = tmp_path / "answers.csv", tmp_path / "submission.csv"
    answers.write_text("Id,Sequence\n1,2 3\n2,4\n")
    submission.write_text(f'Id,Sequence\n1,"{cell}"\n2,4\n')
    spec = SubmissionSpec(id_column="Id", target_columns=("Sequence",), metric=RATE.name)
    result = score_submission(submission, answers, spec)
    assert not result.valid and result.score is None
    assert result.reason is not None
    assert f"not integers in 1 row, first {token} in data row 1" in result.reason
    assert "'2 14 20'" in result.reason


def test_integer_sequences_with_signs_still_score(tmp_path: Path) -> None:
    answers, submission = tmp_path / "answers.csv", tmp_path / "submission.csv"
    answers.write_text("Id,Sequence\n1,2 3\n2,4\n")
    submission.write_text('Id,Sequence\n1,"+2 03"\n2,4\n')
    spec = SubmissionSpec(id_column="Id", target_columns=("Sequence",), metric=RATE.name)
    result = score_submission(submission, answers, spec)
    assert result.valid, result.reason
    assert result.score == 0.0  # '+2' and '03' are the gestures 2 and 3
