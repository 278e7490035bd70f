"""Mean column-wise Spearman ρ: hand-worked ranks with ties, scipy's number, constant columns."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import rankdata, spearmanr

from pytest_mlebench.graders import (
    Columns,
    GraderError,
    SubmissionSpec,
    get_metric,
    score_submission,
    validate_submission,
)
from pytest_mlebench.graders.metrics.correlation import average_ranks

SPEARMAN = get_metric("mean-column-spearman")
SPEC = SubmissionSpec(id_column="id", target_columns=("a", "b"), metric="mean-column-spearman")


def _rho(truth: dict[str, list[float]], pred: dict[str, list[float]]) -> float:
    return SPEARMAN.compute(Columns.of(truth), Columns.of(pred))


def test_ties_share_the_mean_of_their_ranks() -> None:
    # sorted: 0.1 (rank 1), 0.5 0.5 0.5 (ranks 2, 3, 4 → 3 each), 0.9 (rank 5)
    ranks = average_ranks(np.array([0.5, 0.1, 0.5, 0.9, 0.5]))
    assert ranks.tolist() == [3.0, 1.0, 3.0, 5.0, 3.0]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_average_ranks_equal_scipys(seed: int) -> None:
    values = np.random.default_rng(seed).choice([0.0, 1 / 3, 0.5, 2 / 3, 1.0], size=300)
    assert average_ranks(values).tolist() == rankdata(values).tolist()


def test_mean_over_columns_hand_worked() -> None:
    # column a: any increasing prediction ranks exactly as the answers: ρ = 1.
    # column b: answer ranks (1, 2, 3), prediction (1, 3, 2): centred (−1, 0, 1) · (−1, 1, 0)
    # = 1 over √2·√2, ρ = 0.5. Mean (1 + 0.5) / 2 = 0.75.
    truth = {"a": [0.0, 0.5, 1.0], "b": [1.0, 2.0, 3.0]}
    pred = {"a": [10.0, 20.0, 900.0], "b": [0.1, 0.9, 0.5]}
    assert _rho(truth, pred) == pytest.approx(0.75, abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_equals_scipy_column_by_column(seed: int) -> None:
    rng = np.random.default_rng(seed)
    truth = rng.choice([0.0, 0.333333, 0.5, 0.666667, 1.0], size=(400, 3))
    pred = truth + rng.normal(0, 0.4, size=(400, 3))
    pred[:50, 1] = 0.25  # ties on the prediction side too
    expected = np.mean([spearmanr(truth[:, j], pred[:, j]).statistic for j in range(3)])
    names = ("x", "y", "z")
    got = SPEARMAN.compute(Columns.of_matrix(names, truth), Columns.of_matrix(names, pred))
    assert got == pytest.approx(expected, abs=1e-12)


def test_a_constant_answer_column_is_the_competitions_fault() -> None:
    with pytest.raises(GraderError, match="answer column 'b' is constant"):
        _rho({"a": [0, 1, 2], "b": [1, 1, 1]}, {"a": [0, 1, 2], "b": [0, 1, 2]})


def _files(tmp_path: Path, b: list[float]) -> tuple[Path, Path]:
    answers, submission = tmp_path / "answers.csv", tmp_path / "submission.csv"
    ids = ["q1", "q2", "q3", "q4"]
    pd.DataFrame({"id": ids, "a": [0, 1, 2, 3], "b": [0, 0.5, 0.5, 1]}).to_csv(answers, index=False)
    pd.DataFrame({"id": ids, "b": b, "a": [0.1, 0.2, 0.3, 0.4]}).to_csv(submission, index=False)
    return submission, answers


def test_a_constant_prediction_column_is_invalid_with_a_reason(tmp_path: Path) -> None:
    # The original grader averages in scipy's NaN for such a column and reports NaN as valid.
    submission, answers = _files(tmp_path, [0.5, 0.5, 0.5, 0.5])
    for check in (validate_submission, score_submission):
        result = check(submission, answers, SPEC)
        assert not result.valid and result.score is None
        assert result.reason is not None and "'b'" in result.reason and "vary" in result.reason


def test_columns_are_matched_by_name(tmp_path: Path) -> None:
    submission, answers = _files(tmp_path, [0.0, 0.4, 0.6, 1.0])
    result = score_submission(submission, answers, SPEC)
    assert result.valid, result.reason
    expected = (1.0 + spearmanr([0, 0.5, 0.5, 1], [0.0, 0.4, 0.6, 1.0]).statistic) / 2
    assert result.score == pytest.approx(expected, abs=1e-12)
