"""Word-level Jaccard: hand-worked rows, Kaggle's formula, empty cells and Unicode text."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from pytest_mlebench.graders import Columns, SubmissionSpec, get_metric, score_submission

JACCARD = get_metric("word-jaccard")
SPEC = SubmissionSpec(id_column="textID", target_columns=("selected_text",), metric="word-jaccard")


def _kaggle(prediction: str, truth: str) -> float:
    """The competition page's formula, for comparison (it divides by zero on two empty sets)."""
    a, b = set(prediction.lower().split()), set(truth.lower().split())
    return len(a & b) / (len(a) + len(b) - len(a & b))


def _score(truth: list[str], pred: list[str]) -> float:
    return JACCARD.compute(Columns.of({"t": truth}), Columns.of({"p": pred}))


def test_hand_worked_rows() -> None:
    # "so happy today" vs "happy": 1 of 3 words; "Sad" vs "sad sad": sets {sad} = {sad}: 1;
    # "" vs "good": 0 of 1. Mean (1/3 + 1 + 0) / 3 = 4/9.
    truth = ["happy", "sad sad", "good"]
    pred = ["so happy today", "Sad", ""]
    assert _score(truth, pred) == pytest.approx(4 / 9, abs=1e-12)


def test_equals_kaggles_formula_wherever_it_is_defined() -> None:
    pairs = [
        ("I`m sooo sad!!!", "sooo sad"),
        ("  my boss is bullying me...", "bullying me"),
        ("what interview! leave me alone", "leave me alone"),
        ("Sons of ****,", "Sons of ****,"),
        ("", "not empty"),
    ]
    expected = sum(_kaggle(p, t) for p, t in pairs) / len(pairs)
    got = _score([t for _, t in pairs], [p for p, _ in pairs])
    assert got == pytest.approx(expected, abs=1e-12)


def test_two_empty_sets_are_equal() -> None:
    assert _score(["", "a b"], ["   ", "a b"]) == 1.0


def test_hindi_and_tamil_words_split_on_whitespace() -> None:
    # {"भारत", "की", "राजधानी"} vs {"राजधानी"}: 1 of 3; Tamil: the same single word, 1.
    assert _score(["राजधानी", "சென்னை"], ["भारत की राजधानी", "சென்னை"]) == pytest.approx(2 / 3)


def test_an_empty_cell_is_an_empty_prediction_not_a_missing_one(tmp_path: Path) -> None:
    answers, submission = tmp_path / "answers.csv", tmp_path / "submission.csv"
    frame = pd.DataFrame({"textID": ["a1", "b2"], "selected_text": ["good day", "bad, bad"]})
    frame.to_csv(answers, index=False)
    pd.DataFrame({"selected_text": ["", "bad,"], "textID": ["b2", "a1"]}).to_csv(
        submission, index=False
    )
    result = score_submission(submission, answers, SPEC)
    # a1: "bad," vs {"good", "day"}: 0; b2: "" vs {"bad,"}: 0
    assert result.valid, result.reason
    assert result.score == 0.0
    pd.DataFrame({"textID": ["b2", "a1"], "selected_text": ["BAD,", "good"]}).to_csv(
        submission, index=False
    )
    # b2: {"bad,"} vs {"bad,", "bad"} (punctuation stays part of a word): 1/2; a1: 1/2
    assert score_submission(submission, answers, SPEC).score == pytest.approx(0.5)
