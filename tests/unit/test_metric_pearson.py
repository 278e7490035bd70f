"""Pearson's r: hand-worked values, scipy's number, and constant columns on either side."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import pearsonr

from pytest_mlebench.graders import (
    Columns,
    GraderError,
    SubmissionSpec,
    get_metric,
    score_submission,
    validate_submission,
)

PEARSON = get_metric("pearson")
SPEC = SubmissionSpec(id_column="id", target_columns=("score",), metric="pearson")


def _r(truth: list[float], pred: list[float]) -> float:
    return PEARSON.compute(Columns.of({"t": truth}), Columns.of({"p": pred}))


@pytest.mark.parametrize(
    ("truth", "pred", "expected"),
    [
        # p = 2t + 1: a perfect linear relation, whatever the scale and offset
        pytest.param([0, 0.25, 0.5, 1], [1, 1.5, 2, 3], 1.0, id="linear"),
        pytest.param([0, 0.25, 0.5, 1], [3, 2.5, 2, 1], -1.0, id="reversed"),
        # t = (1, 2, 3), p = (1, 3, 2): centred (−1, 0, 1) and (−1, 1, 0): Σ = 1, norms √2 √2
        pytest.param([1, 2, 3], [1, 3, 2], 0.5, id="hand-worked"),
        # centred t = (−1.5, −0.5, 0.5, 1.5), p = (0.5, −0.5, −0.5, 0.5): Σ = −0.75 + 0.25
        # − 0.25 + 0.75 = 0, so r = 0
        pytest.param([0, 1, 2, 3], [1, 0, 0, 1], 0.0, id="uncorrelated"),
    ],
)
def test_pearson_matches_hand_worked_values(
    truth: list[float], pred: list[float], expected: float
) -> None:
    assert _r(truth, pred) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_pearson_equals_scipy(seed: int) -> None:
    rng = np.random.default_rng(seed)
    truth = rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], size=500)
    pred = truth + rng.normal(0, 0.3, size=500) + 1e6  # a large offset costs no precision
    assert _r(list(truth), list(pred)) == pytest.approx(pearsonr(truth, pred)[0], abs=1e-9)


def test_constant_answers_are_the_competitions_fault() -> None:
    with pytest.raises(GraderError, match="constant"):
        _r([0.5, 0.5, 0.5], [0.1, 0.2, 0.3])


def _files(tmp_path: Path, predictions: list[float]) -> tuple[Path, Path]:
    answers = tmp_path / "answers.csv"
    submission = tmp_path / "submission.csv"
    ids = ["a", "b", "c", "d"]
    pd.DataFrame({"id": ids, "score": [0, 0.25, 0.5, 1]}).to_csv(answers, index=False)
    pd.DataFrame({"id": ids, "score": predictions}).to_csv(submission, index=False)
    return submission, answers


def test_constant_predictions_are_invalid_with_a_reason(tmp_path: Path) -> None:
    # The original grader scores this NaN and calls it valid; here both the sandbox validator
    # and grading reject it, with the fix.
    submission, answers = _files(tmp_path, [0.0, 0.0, 0.0, 0.0])
    for check in (validate_submission, score_submission):
        result = check(submission, answers, SPEC)
        assert not result.valid and result.score is None
        assert result.reason is not None
        assert "'score'" in result.reason and "same value (0)" in result.reason
        assert "vary" in result.reason


def test_varying_predictions_score(tmp_path: Path) -> None:
    submission, answers = _files(tmp_path, [0.1, 0.2, 0.6, 0.9])
    result = score_submission(submission, answers, SPEC)
    assert result.valid, result.reason
    expected = pearsonr([0, 0.25, 0.5, 1], [0.1, 0.2, 0.6, 0.9])[0]
    assert result.score == pytest.approx(expected, abs=1e-12)
